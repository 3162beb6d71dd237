// `npm run build:client`: bundles the browser client (client/src) with esbuild into dist/web,
// which the server serves at / and /dashboard. Run from the repository root or anywhere.

import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'web');
const watch = process.argv.includes('--watch');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const f of ['index.html', 'dashboard.html', 'favicon.svg']) copyFileSync(join(here, f), join(out, f));

const result = await build({
  entryPoints: { app: join(here, 'src', 'main.ts'), dashboard: join(here, 'src', 'dashboard', 'main.ts'), style: join(here, 'src', 'style.css') },
  outdir: out,
  bundle: true,
  format: 'esm',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  minify: !watch,
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  external: ['/favicon.svg'],
});
const sizes = Object.entries(result.metafile.outputs)
  .filter(([f]) => !f.endsWith('.map'))
  .map(([f, o]) => `${f.split('/').pop()} ${(o.bytes / 1024).toFixed(1)} KiB`);
console.log(`client built into ${out}: ${sizes.join(', ')}`);
