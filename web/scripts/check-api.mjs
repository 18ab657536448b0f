// Fails when src/api/schema.d.ts is stale: regenerates it from ../docs/openapi.json into a
// temporary file with the same openapi-typescript and compares. Fix with `npm run gen:api`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'carthage-api-'));
const out = join(dir, 'schema.d.ts');
try {
  execFileSync(process.execPath, [join(web, 'node_modules/openapi-typescript/bin/cli.js'), '../docs/openapi.json', '-o', out], {
    cwd: web,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const fresh = readFileSync(out, 'utf8');
  const committed = readFileSync(join(web, 'src/api/schema.d.ts'), 'utf8');
  if (fresh !== committed) {
    console.error('check:api: src/api/schema.d.ts is stale (docs/openapi.json changed): run `npm run gen:api` and commit it.');
    process.exit(1);
  }
  console.log('check:api: src/api/schema.d.ts matches docs/openapi.json');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
