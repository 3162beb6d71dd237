// The client connections of this instance and what each is held to, as `app.connections`:
// WebSockets served at /ws (counted, closed with 1001 on shutdown by ws/plugin.ts), and clients
// whose socket is on another instance of a cluster, served here for the game played here.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { GameDirectory } from '../directory/directory.ts';
import type { Peer } from '../directory/peer.ts';
import { CauseBudgets } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import { Connection, type ConnectionOptions } from '../ws/connection.ts';
import type { SocketPeer } from '../ws/socket-peer.ts';

export class Connections {
  /** Sockets served at /ws, with the connection serving each. */
  readonly live = new Map<Connection, SocketPeer>();
  private readonly policy: Omit<ConnectionOptions, 'log'>;

  constructor(directory: GameDirectory, metrics: Metrics, config: Config) {
    this.policy = {
      directory,
      metrics,
      // Lines a client can make connections log: one per cause a minute.
      logBudget: new CauseBudgets(1, 60_000),
      maxMessageBytes: config.wsMaxMessageBytes,
      messagesPerSecond: config.wsMessagesPerSecond,
      burst: config.wsBurst,
      maxBufferedBytes: config.maxBufferedBytes,
      watchersPerGame: config.watchersPerGame,
    };
  }

  /** Serves `peer` (a /ws socket, or one another instance holds) as a connection of this instance;
   * `playerId`: the signed-in player whose seats it may play without a token. */
  accept(peer: Peer, log: Logger, playerId: string | null = null): Connection {
    return new Connection(peer, { ...this.policy, log, playerId });
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
    app.decorate('connections', new Connections(app.directory, app.metrics, app.config));
  },
  { name: 'connections', fastify: '5.x', dependencies: ['config', 'metrics', 'directory'] },
);
