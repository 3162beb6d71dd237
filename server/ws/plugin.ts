// The WebSocket endpoint: origin allow-list and a per-address cap before the upgrade, small
// maxPayload, a heartbeat that drops dead peers, protocol violations logged as the client's
// fault (one line, budgeted), and closing every socket with 1001 on shutdown.

import websocket from '@fastify/websocket';
import type { Logger } from 'pino';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import { sendError } from '../http/errors.ts';
import { LogBudget } from '../log.ts';
import { waitUntil } from '../wait.ts';
import { SocketPeer } from './socket-peer.ts';

/** Browsers send Origin; other clients usually do not, and are allowed. With no allow-list,
 * a browser page must come from this server's own scheme and host (the scheme from
 * X-Forwarded-Proto only when TESSERA_TRUST_PROXY says a proxy sets it). */
export function originAllowed(request: FastifyRequest, allowed: string[]): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  if (allowed.length > 0) return false;
  try {
    const url = new URL(origin);
    return url.host === request.host && url.protocol === `${request.protocol}:`;
  } catch {
    return false;
  }
}

async function routes(app: FastifyInstance): Promise<void> {
  const { config, metrics } = app;
  const connections = app.connections.live;

  // Runs before @fastify/websocket's own preClose (registered after this), so peers get 1001.
  app.addHook('preClose', async () => {
    for (const c of connections.keys()) c.goodbye('shutdown');
    await waitUntil(() => connections.size === 0, config.shutdownGraceMs);
    for (const peer of connections.values()) peer.terminate();
  });

  // A peer breaking the WebSocket protocol (invalid UTF-8, a bad opcode, an oversize frame) is
  // the client's fault: ws has closed it with the right code; say so in one warn line, within a
  // budget an attacker cannot turn into a log flood.
  const violations = new LogBudget(20, 60_000);
  const errorHandler = (error: Error & { code?: string }, socket: WebSocket, request: FastifyRequest) => {
    socket.terminate();
    if (error.code?.startsWith('WS_ERR_')) {
      metrics.wsViolations.inc({ code: error.code });
      violations.warn(request.log as Logger, { code: error.code, ip: request.ip }, `WebSocket protocol violation by the client: ${error.message}`);
    } else if (error.code === 'ECONNRESET' || error.code === 'EPIPE') request.log.debug({ code: error.code }, 'WebSocket peer went away');
    else request.log.error({ err: error }, 'WebSocket handler failed');
  };
  await app.register(websocket, { options: { maxPayload: config.wsMaxPayload }, errorHandler });

  const perAddress = new Map<string, number>();

  const heartbeat = setInterval(() => {
    for (const peer of connections.values()) {
      if (!peer.alive) {
        peer.terminate();
        continue;
      }
      peer.alive = false;
      peer.ping();
    }
  }, config.heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  app.route({
    method: 'GET',
    url: '/ws',
    schema: { tags: ['play'], summary: 'WebSocket play (protocol v1, docs/PROTOCOL.md); upgrade required', hide: true },
    // A plain HTTP request (no upgrade) gets the one error shape, not the plugin's empty 404.
    handler: async (_request, reply) => sendError(reply, 'bad_request', 'this is the WebSocket endpoint: open it with an upgrade (docs/PROTOCOL.md)'),
    preValidation: async (request, reply) => {
      if (!originAllowed(request, config.allowedOrigins)) {
        metrics.shed.inc({ what: 'ws_origin' });
        return sendError(reply, 'origin_not_allowed', `origin ${request.headers.origin} is not allowed`);
      }
      if ((perAddress.get(request.ip) ?? 0) >= config.wsPerIp) {
        metrics.shed.inc({ what: 'ws_per_ip' });
        return sendError(reply, 'too_many_connections', `at most ${config.wsPerIp} WebSocket connections from one address`);
      }
    },
    wsHandler: (socket, request) => {
      perAddress.set(request.ip, (perAddress.get(request.ip) ?? 0) + 1);
      socket.on('close', () => {
        const left = (perAddress.get(request.ip) ?? 1) - 1;
        if (left > 0) perAddress.set(request.ip, left);
        else perAddress.delete(request.ip);
      });
      const peer = new SocketPeer(socket);
      const conn = app.connections.accept(peer, request.log as Logger, request.player?.id ?? null);
      peer.serve(conn);
      connections.set(conn, peer);
      metrics.sockets.set(connections.size);
      socket.on('close', () => {
        connections.delete(conn);
        metrics.sockets.set(connections.size);
      });
    },
  });
}

/** Not encapsulated, so @fastify/websocket's decorators (injectWS: tests reach /ws without a
 * port) are the app's; registered last (app.ts), so its request hooks reach no other route and
 * its close steps come after every service's. Refused at boot without the services it uses. */
export const wsRoutes = fp(routes, { name: 'ws-routes', fastify: '5.x', dependencies: ['config', 'metrics', 'connections'] });
