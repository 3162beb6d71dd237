// How the built client is shipped: precompressed brotli/gzip chosen by the
// browser's Accept-Encoding, content-hashed bundle names cached as immutable, pages never cached,
// no source maps built or served, and the game screen within its size budget. Serves a copy of
// the real build (dist/web) through the client plugin with app.inject.
//
// Needs `npm run build` (or `npm run build:client`).

import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { clientRoutes, IMMUTABLE } from '../server/http/client.ts';

const WEB = fileURLToPath(new URL('../dist/web/', import.meta.url));
/** The game screen's budget: its JS and CSS, as sent compressed. */
const BUDGET_BYTES = 150 * 1024;

let app: FastifyInstance;
let dir: string;
let bundles: { js: string; css: string };

before(async () => {
  assert.ok(existsSync(join(WEB, 'index.html')), 'the client is not built: run `npm run build` (or `npm run build:client`)');
  dir = mkdtempSync(join(tmpdir(), 'tessera-web-'));
  cpSync(WEB, dir, { recursive: true });
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  bundles = { js: /src="\/([^"]+\.js)"/.exec(html)![1], css: /href="\/(style[^"]+\.css)"/.exec(html)![1] };
  // A map left by a development build must still not be served.
  writeFileSync(join(dir, `${bundles.js}.map`), '{"version":3,"sources":["secret.ts"]}');
  app = Fastify();
  await app.register(clientRoutes, { dir });
  await app.ready();
});

after(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) => app.inject({ url, headers: encoding ? { 'accept-encoding': encoding } : {} });

test('the build names bundles by content hash, precompresses every asset and writes no source map', () => {
  const files = readdirSync(WEB);
  assert.match(bundles.js, /^app-[A-Z0-9]{8}\.js$/);
  assert.match(bundles.css, /^style-[A-Z0-9]{8}\.css$/);
  assert.deepEqual(
    files.filter((f) => f.endsWith('.map')),
    [],
  );
  for (const f of files.filter((f) => !/\.(br|gz)$/.test(f))) {
    assert.ok(files.includes(`${f}.br`) && files.includes(`${f}.gz`), `${f} is precompressed`);
    const raw = readFileSync(join(WEB, f));
    assert.deepEqual(brotliDecompressSync(readFileSync(join(WEB, `${f}.br`))), raw, `${f}.br holds ${f}`);
    assert.deepEqual(gunzipSync(readFileSync(join(WEB, `${f}.gz`))), raw, `${f}.gz holds ${f}`);
  }
  assert.doesNotMatch(readFileSync(join(WEB, bundles.js), 'utf8'), /sourceMappingURL/);
  assert.match(readFileSync(join(WEB, 'dashboard.html'), 'utf8'), /src="\/dashboard-[A-Z0-9]{8}\.js"/);
});

test('pages: brotli or gzip as the browser accepts, never cached, varying on Accept-Encoding', async () => {
  const raw = readFileSync(join(WEB, 'index.html'));
  for (const url of ['/', '/g/abc', '/replay/abc']) {
    const br = await get(url, 'gzip, deflate, br');
    assert.equal(br.statusCode, 200, url);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['cache-control'], 'no-cache');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.match(String(br.headers['content-type']), /^text\/html/);
    assert.deepEqual(brotliDecompressSync(br.rawPayload), raw);
  }
  const gz = await get('/', 'gzip');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gz.rawPayload), raw);
  const plain = await get('/');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.deepEqual(plain.rawPayload, raw);
  const dash = await get('/dashboard', 'br');
  assert.equal(dash.headers['cache-control'], 'no-cache');
  assert.match(brotliDecompressSync(dash.rawPayload).toString(), /pool dashboard/);
});

test('hashed bundles are cached for a year as immutable, compressed; the same bytes in every encoding', async () => {
  for (const name of [bundles.js, bundles.css]) {
    const raw = readFileSync(join(WEB, name));
    const br = await get(`/${name}`, 'br;q=1, gzip;q=0.8');
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['cache-control'], IMMUTABLE);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers['content-type']), name.endsWith('.js') ? /javascript/ : /text\/css/);
    assert.deepEqual(brotliDecompressSync(br.rawPayload), raw);
    const gz = await get(`/${name}`, 'gzip');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.rawPayload), raw);
    const plain = await get(`/${name}`);
    assert.equal(plain.headers['cache-control'], IMMUTABLE);
    assert.deepEqual(plain.rawPayload, raw);
  }
  // Unhashed assets are not immutable.
  const icon = await get('/favicon.svg', 'br');
  assert.equal(icon.statusCode, 200);
  assert.notEqual(icon.headers['cache-control'], IMMUTABLE);
});

test('source maps are not served, even when a file is present', async () => {
  const map = await get(`/${bundles.js}.map`, 'br');
  assert.ok(map.statusCode === 403 || map.statusCode === 404, `got ${map.statusCode}`);
  assert.doesNotMatch(map.body, /secret\.ts/);
});

test('the game screen fits its budget: JS + CSS ≤ 150 KB compressed', async () => {
  const sent = async (encoding: string) => {
    let total = 0;
    for (const name of [bundles.js, bundles.css]) total += (await get(`/${name}`, encoding)).rawPayload.length;
    return total;
  };
  const brotli = await sent('br');
  const gzip = await sent('gzip');
  assert.ok(gzip <= BUDGET_BYTES, `gzip ${gzip} bytes`);
  assert.ok(brotli <= gzip, `brotli ${brotli} ≤ gzip ${gzip}`);
});
