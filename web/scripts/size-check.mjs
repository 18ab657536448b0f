// @ts-check
// Size budget of the first load of /home, as a browser sees it: every byte Chromium (its own
// Accept-Encoding, br included; empty cache) transfers when a guest opens /home, headers included,
// until the network is idle (scripts/first-load.mjs). Fails above 150 KiB.
//   npm run size -- http://127.0.0.1:8080      (or E2E_BASE_URL=...; a server serving this dist/)
// `make test` runs the same measurement as the browser test "load: first load of /home ..."
// (e2e/load.mjs) against the server scripts/e2e.sh starts.
import { chromium } from 'playwright-core';
import { FIRST_LOAD_BUDGET, describe, kib, measureFirstLoad } from './first-load.mjs';

const base = process.argv[2] ?? process.env.E2E_BASE_URL;
if (!base) {
  console.error('size: usage: npm run size -- <server origin, e.g. http://127.0.0.1:8080>');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium', headless: true });
try {
  const { total, received, sent, js, files } = await measureFirstLoad(browser, base);
  for (const f of files) console.log(describe(f));
  console.log(`size: JavaScript bodies ${kib(js)}; received ${kib(received)}, sent ${kib(sent)}`);
  console.log(`size: first load of /home transferred ${kib(total)} in ${files.length} requests, headers included (budget ${kib(FIRST_LOAD_BUDGET)})`);
  if (total > FIRST_LOAD_BUDGET) {
    console.error(`size: over budget by ${kib(total - FIRST_LOAD_BUDGET)}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
