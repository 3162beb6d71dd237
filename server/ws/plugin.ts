// The WebSocket endpoint: origin allow-list before the upgrade, small maxPayload, a heartbeat
// that drops dead peers, and closing every socket with 1001 on shutdown.

import websocket from '@fastify/websocket';
import type { Logger } from 'pino';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Connection } from './connection.ts';
import { CLOSE } from './protocol.ts';
import { errorBody } from '../errors.ts';

/** Browsers send Origin; other clients usually do not, and are allowed. With no allow-list,
 * a browser page must come from this server's own host. */
export function originAllowed(request: FastifyRequest, allowed: string[]): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  if (allowed.length > 0) return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

export async function wsRoutes(app: FastifyInstance): Promise<void> {
  const { config, games, metrics } = app.tessera;
  const connections = app.tessera.connections;

  // Runs before @fastify/websocket's own preClose (registered after this), so peers get 1001.
  app.addHook('preClose', async () => {
    for (const c of connections) {
      c.send({ type: 'bye', reason: 'server shutting down' });
      c.socket.close(CLOSE.shutdown, 'server shutting down');
    }
    const until = Date.now() + config.shutdownGraceMs;
    while (connections.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (const c of connections) c.socket.terminate();
  });

  await app.register(websocket, { options: { maxPayload: config.wsMaxPayload } });

  const heartbeat = setInterval(() => {
    for (const c of connections) {
      if (!c.alive) {
        c.socket.terminate();
        continue;
      }
      c.alive = false;
      c.socket.ping();
    }
  }, config.heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  app.get(
    '/ws',
    {
      websocket: true,
      schema: { tags: ['play'], summary: 'WebSocket play (protocol v1, docs/PROTOCOL.md); upgrade required' },
      preValidation: async (request, reply) => {
        if (!originAllowed(request, config.allowedOrigins)) {
          metrics.shed.inc({ what: 'ws_origin' });
          return reply.code(403).send(errorBody('origin_not_allowed', `origin ${request.headers.origin} is not allowed`));
        }
      },
    },
    (socket, request) => {
      const conn = new Connection(socket, {
        games,
        metrics,
        log: request.log as Logger,
        maxMessageBytes: config.wsMaxMessageBytes,
        messagesPerSecond: config.wsMessagesPerSecond,
        burst: config.wsBurst,
        maxBufferedBytes: config.maxBufferedBytes,
      });
      connections.add(conn);
      metrics.sockets.set(connections.size);
      conn.socket.on('close', () => {
        connections.delete(conn);
        metrics.sockets.set(connections.size);
      });
    },
  );
}
