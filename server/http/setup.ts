// What every route shares: the OpenAPI document (served at /openapi.json), the one error shape
// with its status from the catalogue, and per-route rate limits.

import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CodedError } from '../errors.ts';
import { PROTOCOL_VERSION } from '../wire/version.ts';
import { installErrorHandling } from './errors.ts';

async function setup(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Tessera game server', version: `1.0.0 (WebSocket protocol v${PROTOCOL_VERSION})`, description: 'HTTP API; play happens over the WebSocket at /ws (docs/PROTOCOL.md).' },
      tags: [{ name: 'games' }, { name: 'players' }, { name: 'push' }, { name: 'play' }, { name: 'ops' }],
    },
  });
  installErrorHandling(app);
  // Bodies are JSON only. Fastify also parses text/plain, whose string then fails a body schema as
  // a 400; a body that is not JSON is a 415 (docs/PROTOCOL.md).
  app.removeContentTypeParser('text/plain');
  app.addHook('preValidation', async (request) => refuseUnaskedBody(request));
  // Per-route limits only (the routes that create state say theirs); probes and reads are free.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new CodedError('too_many_requests', `at most ${context.max} of these a minute from one address; retry in ${Math.ceil(context.ttl / 1000)} s`),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** A call whose schema names no body refuses one that names a field, as a call with a body
 * refuses a field it does not name (fastify checks only the bodies a schema describes). `{}` names
 * nothing and passes. GET and HEAD bodies are never parsed: any is refused, unread. */
function refuseUnaskedBody(request: FastifyRequest): void {
  if (request.routeOptions.schema?.body) return;
  const { body } = request;
  if (body === undefined || body === null) {
    const length = request.headers['content-length'];
    if ((length !== undefined && length !== '0') || request.headers['transfer-encoding']) throw new CodedError('bad_request', `${request.method} ${request.routeOptions.url} takes no body`);
    return;
  }
  const fields = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : null;
  if (fields?.length === 0) return;
  throw new CodedError('bad_request', `${request.method} ${request.routeOptions.url} takes no body${fields ? `: ${JSON.stringify(fields[0])} is not a field of it` : ''}`);
}

/** Not encapsulated: the routes registered after it are documented, shaped and limited by it. */
export const httpSetup = fp(setup, { name: 'http-setup', fastify: '5.x', dependencies: ['metrics'] });
