// The WebSocket connections of this instance and what each is held to, as `app.connections`:
// those served at /ws (counted, closed with 1001 on shutdown by ws/plugin.ts) and those relayed
// here from another instance (plugins/cluster.ts).

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { Relay } from '../cluster/relay.ts';
import type { Config } from '../config.ts';
import type { GameService } from '../games/service.ts';
import { CauseBudgets } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import { Connection, type ConnectionOptions, type WebSocket } from '../ws/connection.ts';

export class Connections {
  /** Sockets served at /ws. */
  readonly live = new Set<Connection>();
  private readonly policy: Omit<ConnectionOptions, 'log' | 'relay'>;

  constructor(games: GameService, metrics: Metrics, config: Config, instance: string | null) {
    this.policy = {
      games,
      metrics,
      // Lines a client can make connections log: one per cause a minute.
      logBudget: new CauseBudgets(1, 60_000),
      maxMessageBytes: config.wsMaxMessageBytes,
      messagesPerSecond: config.wsMessagesPerSecond,
      burst: config.wsBurst,
      maxBufferedBytes: config.maxBufferedBytes,
      watchersPerGame: config.watchersPerGame,
      ...(instance ? { instance } : {}),
    };
  }

  /** Serves `socket` (a /ws socket or a relayed one) as a connection of this instance; with a
   * relay (a cluster with Redis), a hello for a game another instance plays goes there. */
  accept(socket: WebSocket, log: Logger, relay: Relay | null): Connection {
    return new Connection(socket, { ...this.policy, log, ...(relay ? { relay } : {}) });
  }

  get count(): number {
    return this.live.size;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    connections: Connections;
  }
}

export const connectionsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('connections', new Connections(app.games, app.metrics, app.config, app.cluster?.instance ?? null));
  },
  { name: 'connections', fastify: '5.x', dependencies: ['config', 'metrics', 'cluster', 'games'] },
);
