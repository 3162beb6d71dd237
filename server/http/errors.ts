// One error shape for every HTTP failure, the framework's and the HTTP parser's included:
// {statusCode, code, message} with a code from the catalogue (server/errors.ts). No stack leaves.

import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type HttpErrorCode, errorBody } from '../errors.ts';
import { OverloadError } from '../games/service.ts';
import { DamagedGameError, GameElsewhereError, StorageError } from '../games/store.ts';

export const errorSchema = {
  $id: 'Error',
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  properties: { statusCode: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' } },
} as const;

/** The catalogue code for a framework error (a bad body, a wrong content type, …); any other
 * client error is a `bad_request` (400), so the status always is the code's. */
function frameworkCode(status: number): HttpErrorCode {
  if (status === 413) return 'too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 431) return 'headers_too_large';
  if (status === 408) return 'request_timeout';
  return status === 404 ? 'not_found' : 'bad_request';
}

/** fastify's `frameworkErrors`: errors its router raises before any route or error handler
 * runs (a path that is not valid percent-encoding, a path parameter over 100 characters). */
export function onRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_BAD_URL' ? 'the path is not valid percent-encoded UTF-8' : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is over 100 characters' : error.message;
  request.log.warn({ code: error.code }, message);
  void reply.code(400).send(errorBody('bad_request', message));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.addSchema(errorSchema);
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (err instanceof OverloadError) {
      app.tessera.metrics.shed.inc({ what: 'create_game' });
      request.log.warn({ reason: err.message }, 'request shed');
      return reply.code(503).header('retry-after', String(err.retryAfterSeconds)).send(errorBody('overloaded', err.message));
    }
    if (err instanceof ApiError) return reply.code(err.statusCode).send(errorBody(err.code, err.message));
    // Logged (once per failure streak) by the store's watcher.
    // Logged once, when the game was set aside (GameService).
    if (err instanceof DamagedGameError) return reply.code(500).send(errorBody('game_damaged', err.message));
    if (err instanceof GameElsewhereError) return reply.code(503).header('retry-after', '2').send(errorBody('game_elsewhere', err.message));
    if (err instanceof StorageError)
      return reply
        .code(503)
        .header('retry-after', '10')
        .send(errorBody('storage_unavailable', `the server could not store this (${err.reason}); nothing changed: retry later`));
    const fe = err as FastifyError;
    if (fe.validation) return reply.code(400).send(errorBody('bad_request', fe.message));
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      const body = errorBody(frameworkCode(fe.statusCode), fe.message);
      request.log.warn({ code: fe.code, statusCode: fe.statusCode }, fe.message);
      return reply.code(body.statusCode).send(body);
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(errorBody('internal', 'internal server error'));
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorBody('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)));
}

/**
 * For requests the HTTP parser rejects before fastify sees them (a malformed request line, a bad
 * chunked body, oversized headers, a timeout): the same JSON shape, then the socket closes.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code: HttpErrorCode = err.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'bad_request';
  const body = errorBody(
    code,
    code === 'bad_request' ? `malformed request (${err.code ?? 'parse error'})` : code === 'headers_too_large' ? 'the request headers are too large' : 'the request was not received in time',
  );
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${body.statusCode} ${code.replace(/_/g, ' ')}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`);
  }
  socket.destroy();
}
