// Size budget of the first load of /home: the gzip size of the JavaScript the browser
// fetches for it — the entry script of dist/index.html and its static imports, the /home route
// chunk and its static imports, and the default (English) locale — from dist/.vite/manifest.json.
// Fails above the budget (150 KiB). Run after `npm run build`.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const BUDGET = 150 * 1024;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
/** @type {Record<string, { file: string, imports?: string[] }>} */
let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
} catch {
  console.error('size: dist/.vite/manifest.json is missing: run `npm run build` first');
  process.exit(2);
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entryFile = /<script[^>]*type="module"[^>]*src="\/([^"]+\.js)"/.exec(html)?.[1];
const entryKey = Object.keys(manifest).find((k) => manifest[k]?.file === entryFile);
const homeKey = Object.keys(manifest).find((k) => /features\/home\/routes\/HomePage\.tsx$/.test(k));
const localeKeys = Object.keys(manifest).filter((k) => /locales\/en\/common\.json$/.test(k));
if (!entryKey || !homeKey || localeKeys.length === 0) {
  console.error(`size: cannot find the entry (${entryFile}), the home route or the English locale in the manifest`);
  process.exit(2);
}

const files = new Set();
/** @param {string} key */
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
for (const key of [entryKey, homeKey, ...localeKeys]) visit(key);

let total = 0;
const rows = [...files].map((file) => {
  const bytes = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += bytes;
  return { file, bytes };
});
rows.sort((a, b) => b.bytes - a.bytes);
/** @param {number} n */
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const { file, bytes } of rows) console.log(`  ${kib(bytes).padStart(10)}  ${file}`);
console.log(`size: initial JavaScript for /home: ${kib(total)} gzip (budget ${kib(BUDGET)})`);
if (total > BUDGET) {
  console.error(`size: over budget by ${kib(total - BUDGET)}`);
  process.exit(1);
}
