// One error shape for every HTTP failure: {statusCode, code, message}. No stack traces leave.

import type { FastifyError, FastifyInstance } from 'fastify';
import { GameConflict, OverloadError } from '../games/service.ts';

export const errorSchema = {
  $id: 'Error',
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  properties: { statusCode: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' } },
} as const;

export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  constructor(statusCode: number, code: string, message: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
  }
}

export function installErrorHandling(app: FastifyInstance): void {
  app.addSchema(errorSchema);
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (err instanceof OverloadError) {
      app.tessera.metrics.shed.inc({ what: 'create_game' });
      request.log.warn({ reason: err.message }, 'request shed');
      return reply.code(503).header('retry-after', String(err.retryAfterSeconds)).send({ statusCode: 503, code: 'overloaded', message: err.message });
    }
    if (err instanceof GameConflict) {
      const status = err.code === 'unknown_game' ? 404 : err.code === 'bad_token' ? 403 : 409;
      return reply.code(status).send({ statusCode: status, code: err.code, message: err.message });
    }
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ statusCode: err.statusCode, code: err.code, message: err.message });
    const fe = err as FastifyError;
    if (fe.validation) return reply.code(400).send({ statusCode: 400, code: 'bad_request', message: fe.message });
    const status = fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'request failed');
    return reply.code(status).send({ statusCode: status, code: status === 500 ? 'internal' : (fe.code ?? 'bad_request'), message: status === 500 ? 'internal server error' : fe.message });
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ statusCode: 404, code: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}` }));
}
