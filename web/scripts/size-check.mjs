// @ts-check
// Size budget of the first load of /home, as a browser sees it: what Chromium (its own
// Accept-Encoding, br included; empty cache) transfers when a guest opens /home until the network
// is idle (scripts/first-load.mjs). Fails when its JavaScript, response headers included, is above
// 150 KiB; prints every transfer and the totals received and sent.
//   npm run size -- http://127.0.0.1:8080      (or E2E_BASE_URL=...; a server serving this dist/)
// `make test` runs the same measurement as the browser test "load: first load of /home ..."
// (e2e/load.mjs) against the server scripts/e2e.sh starts.
import { chromium } from 'playwright-core';
import { FIRST_LOAD_BUDGET, describe, isJs, kib, measureFirstLoad } from './first-load.mjs';

const base = process.argv[2] ?? process.env.E2E_BASE_URL;
if (!base) {
  console.error('size: usage: npm run size -- <server origin, e.g. http://127.0.0.1:8080>');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium', headless: true });
try {
  const { scripts, received, sent, total, files } = await measureFirstLoad(browser, base);
  for (const f of files) console.log(describe(f));
  const js = files.filter(isJs);
  console.log(`size: every transfer: ${files.length} requests, ${kib(received)} received + ${kib(sent)} sent = ${kib(total)}, headers included`);
  console.log(`size: JavaScript for /home: ${kib(scripts)} in ${js.length} files, response headers included (budget ${kib(FIRST_LOAD_BUDGET)})`);
  if (scripts > FIRST_LOAD_BUDGET) {
    console.error(`size: over budget by ${kib(scripts - FIRST_LOAD_BUDGET)}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
