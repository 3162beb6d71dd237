// One error shape for every HTTP failure, the framework's and the HTTP parser's included:
// {statusCode, code, message} with a code from the catalogue (server/errors.ts). No stack leaves.

import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CodedError, type HttpErrorCode, errorBody, isHttpCode } from '../errors.ts';

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

/** Answers `code` with its catalogue status, the one error body and, when given, Retry-After. */
export function sendError(reply: FastifyReply, code: HttpErrorCode, message: string, retryAfterSeconds?: number): FastifyReply {
  const body = errorBody(code, message);
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(body.statusCode).send(body);
}

/** fastify's `frameworkErrors`: errors its router raises before any route or error handler
 * runs (a path that is not valid percent-encoding, a path parameter over 100 characters). */
export function onRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_BAD_URL' ? 'the path is not valid percent-encoded UTF-8' : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is over 100 characters' : error.message;
  request.log.warn({ code: error.code }, message);
  void sendError(reply, 'bad_request', message);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.addSchema(errorSchema);
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    // Not logged here: a stored failure is logged by the store's watcher (once per failure
    // streak), a damaged game once when it is set aside (GameService), a refusal is the client's.
    if (err instanceof CodedError && isHttpCode(err.code)) {
      if (err.code === 'overloaded') {
        app.metrics.shed.inc({ what: 'create_game' });
        request.log.warn({ reason: err.message }, 'request shed');
      }
      return sendError(reply, err.code, err.clientMessage, err.retryAfterSeconds);
    }
    const fe = err as FastifyError;
    if (fe.validation) return sendError(reply, 'bad_request', fe.message);
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      request.log.warn({ code: fe.code, statusCode: fe.statusCode }, fe.message);
      return sendError(reply, frameworkCode(fe.statusCode), fe.message);
    }
    // A WebSocket-only code that reached HTTP is a server bug like any other failure.
    request.log.error({ err }, 'request failed');
    return sendError(reply, 'internal', 'internal server error');
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`));
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
