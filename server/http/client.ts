// Serves the built browser client (dist/web, from `npm run build:client`): the game at `/`,
// the operations dashboard at `/dashboard`, and their assets. Owned by the client (issue E).
// When the client has not been built, `/` says how to build it instead of a bare 404.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** dist/web: a sibling of dist/server when running compiled, else dist/ beside the sources. */
export function clientDir(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.js') ? new URL('../../web/', here) : new URL('../../dist/web/', here));
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
    setHeaders(reply, path) {
      // HTML must always be fresh; bundles are small and rebuilt in place, so revalidate too.
      reply.header('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=300, must-revalidate');
      reply.header('x-content-type-options', 'nosniff');
    },
  });
  const page = (file: string) => async (_request: unknown, reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile(file);
  app.get('/', { schema: { hide: true } }, page('index.html'));
  app.get('/dashboard', { schema: { hide: true } }, page('dashboard.html'));
  app.get('/replay/:id', { schema: { hide: true } }, page('index.html'));
  app.get('/g/:id', { schema: { hide: true } }, page('index.html'));
}
