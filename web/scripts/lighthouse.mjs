// Lighthouse 12 (mobile preset) against a URL, with the system Chromium:
//   CHROME_PATH=/usr/bin/chromium npm run lighthouse -- http://127.0.0.1:8080/home
// Prints the category scores and the main metrics; writes the JSON report next to the
// screenshots (web/screenshots/lighthouse.json, git-ignored). Figures are recorded in
// docs/PERFORMANCE.md, not asserted.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const url = process.argv[2];
if (!url) {
  console.error('usage: npm run lighthouse -- <url>   (e.g. http://127.0.0.1:8080/home)');
  process.exit(2);
}
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';

const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'],
});
try {
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    // Mobile form factor, emulated Moto G Power and simulated slow 4G: the default config.
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  });
  if (!result) throw new Error('lighthouse returned no result');
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const out = fileURLToPath(new URL('../screenshots/', import.meta.url));
  await mkdir(out, { recursive: true });
  await writeFile(`${out}lighthouse.json`, JSON.stringify(lhr, null, 1));
  console.log(`lighthouse ${lhr.lighthouseVersion} ${lhr.configSettings.formFactor} ${url}`);
  for (const [id, cat] of Object.entries(lhr.categories)) {
    console.log(`  ${id.padEnd(16)} ${Math.round((cat.score ?? 0) * 100)}`);
  }
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
    const audit = lhr.audits[id];
    if (audit) console.log(`  ${id.padEnd(26)} ${audit.displayValue ?? ''}`);
  }
  const failed = Object.values(lhr.audits).filter(
    (a) => a.score !== null && a.score < 1 && lhr.categories.accessibility?.auditRefs.some((r) => r.id === a.id && r.weight > 0),
  );
  for (const a of failed) console.log(`  accessibility: ${a.id} — ${a.title}`);
  console.log(`report: ${out}lighthouse.json`);
} finally {
  await chrome.kill();
}
