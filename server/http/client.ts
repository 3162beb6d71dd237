// Serves the built browser client (dist/web, from `npm run build:client`): the game at `/`,
// the operations dashboard at `/dashboard`, and their assets.
// When the client has not been built, `/` says how to build it instead of a bare 404.
//
// Shipping: the build precompresses every asset (.br, .gz) and @fastify/static picks
// the one the browser accepts (`Vary: Accept-Encoding`); bundles carry a content hash in their
// name and are cached for a year as immutable, pages are `no-cache` so a deploy is seen at once;
// source maps are never served.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** dist/web: a sibling of dist/server when running compiled, else dist/ beside the sources. */
export function clientDir(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.js') ? new URL('../../web/', here) : new URL('../../dist/web/', here));
}

/** A bundle named by esbuild's content hash (`app-3KX7Q2ZB.js`): its bytes never change. */
const HASHED = /-[A-Z0-9]{8}\.(?:js|css)$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The cache policy of a served file (its path may end in the .br/.gz the browser was sent). */
export function cacheControl(path: string): string {
  const file = path.replace(/\.(?:br|gz)$/, '');
  if (HASHED.test(file)) return IMMUTABLE;
  // Pages must always be fresh: they name the current bundles; so must the service worker, whose
  // name never changes. The favicon may lag an hour.
  return file.endsWith('.html') || file.endsWith('/sw.js') || file === 'sw.js' ? 'no-cache' : 'public, max-age=3600';
}

export async function clientRoutes(app: FastifyInstance, options: { dir?: string } = {}): Promise<void> {
  const root = options.dir ?? clientDir();
  if (!existsSync(`${root}/index.html`)) {
    app.log.warn({ dir: root }, 'browser client not built: run `npm run build:client`');
    const hint = async (_: unknown, reply: FastifyReply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The browser client is not built: run `npm run build:client` (or `npm run build`).\n');
    app.get('/', { schema: { hide: true } }, hint);
    app.get('/dashboard', { schema: { hide: true } }, hint);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    // A source map (left by a development build) would publish the sources: never served.
    allowedPath: (path) => !path.endsWith('.map'),
    setHeaders(reply, path) {
      reply.header('cache-control', cacheControl(path));
      reply.header('x-content-type-options', 'nosniff');
    },
  });
  const page = (file: string) => async (_request: unknown, reply: FastifyReply) => reply.sendFile(file);
  app.get('/', { schema: { hide: true } }, page('index.html'));
  app.get('/dashboard', { schema: { hide: true } }, page('dashboard.html'));
  app.get('/replay/:id', { schema: { hide: true } }, page('index.html'));
  app.get('/g/:id', { schema: { hide: true } }, page('index.html'));
}
