// Renders the app icons' PNGs (public/icons/*.png) from their SVG sources (public/icons/icon.svg,
// the logo of src/app/layout/Header.tsx on the app background; maskable.svg, the same with the
// logo inside the maskable safe zone) with the system Chromium. Run after changing an SVG:
//   node scripts/icons.mjs        (E2E_CHROMIUM overrides /usr/bin/chromium)
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const dir = new URL('../public/icons/', import.meta.url);
/** @type {{ source: string, target: string, size: number, transparent: boolean }[]} */
const outputs = [
  { source: 'icon.svg', target: 'icon-192.png', size: 192, transparent: true },
  { source: 'icon.svg', target: 'icon-512.png', size: 512, transparent: true },
  { source: 'maskable.svg', target: 'maskable-192.png', size: 192, transparent: false },
  { source: 'maskable.svg', target: 'maskable-512.png', size: 512, transparent: false },
  { source: 'maskable.svg', target: 'apple-touch-icon.png', size: 180, transparent: false },
];
const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium' });
try {
  for (const { source, target, size, transparent } of outputs) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const svg = readFileSync(new URL(source, dir), 'utf8').replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.screenshot({ path: new URL(target, dir).pathname, omitBackground: transparent, clip: { x: 0, y: 0, width: size, height: size } });
    await page.close();
    console.log(`icons: ${target} (${size}x${size})`);
  }
} finally {
  await browser.close();
}
