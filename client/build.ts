// `npm run build:client`: bundles the browser client (client/src) with esbuild into dist/web, with
// its service worker at /sw.js, which the server serves at / and /dashboard. Run from the repository root or anywhere.
//
// Shipping: bundles get content-hashed names (app-3KX7Q2ZB.js) so the server can cache them
// for a year (immutable); the HTML pages, never cached, are rewritten to point at them. Every
// text asset is precompressed next to itself (.br at brotli 11, .gz at gzip 9), so the server
// sends them without compressing per request. No source map files: `--watch` (development)
// inlines them instead.

import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'web');
const watch = process.argv.includes('--watch');
const pages = ['index.html', 'dashboard.html'];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const f of [...pages, 'favicon.svg']) copyFileSync(join(here, f), join(out, f));

const result = await build({
  entryPoints: { app: join(here, 'src', 'main.ts'), dashboard: join(here, 'src', 'dashboard', 'main.ts'), style: join(here, 'src', 'styles.css') },
  outdir: out,
  entryNames: watch ? '[name]' : '[name]-[hash]',
  bundle: true,
  format: 'esm',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  minify: !watch,
  sourcemap: watch ? 'inline' : false,
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  external: ['/favicon.svg'],
});

// The service worker keeps one name, /sw.js at the site's root: its URL is its identity and its
// scope (the whole site), and browsers check it for updates themselves.
await build({
  entryPoints: { sw: join(here, 'src', 'sw.ts') },
  outdir: out,
  entryNames: '[name]',
  bundle: true,
  format: 'iife',
  target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
  minify: !watch,
  sourcemap: watch ? 'inline' : false,
  logLevel: 'warning',
  legalComments: 'none',
});

/** Built file names by the unhashed name the pages use: `app.js` → `app-3KX7Q2ZB.js`. */
const built = new Map(
  Object.keys(result.metafile.outputs)
    .filter((f) => !f.endsWith('.map'))
    .map((f) => [basename(f).replace(/-[A-Z0-9]{8}(\.\w+)$/, '$1'), basename(f)]),
);
for (const page of pages) {
  const file = join(out, page);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/(href|src)="\/([\w-]+\.(?:js|css))"/g, (all, attr, name) => (built.has(name) ? `${attr}="/${built.get(name)}"` : all)),
  );
}

/** Writes `file.br` and `file.gz`; returns the three sizes in bytes. */
function precompress(file: string): { raw: number; gzip: number; brotli: number } {
  const data = readFileSync(file);
  const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
  const gz = gzipSync(data, { level: 9 });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
  return { raw: data.length, gzip: gz.length, brotli: br.length };
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const sizes = [...pages, 'favicon.svg', 'sw.js', ...built.values()].map((f) => {
  const s = precompress(join(out, f));
  return `${f} ${kib(s.raw)} (gzip ${kib(s.gzip)}, br ${kib(s.brotli)})`;
});
console.log(`client built into ${out}:\n  ${sizes.join('\n  ')}`);
