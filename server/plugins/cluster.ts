// Several instances over one PostgreSQL database: `app.cluster` is the store as a cluster member
// (null alone), `app.leases` keeps this instance's games and takes over those of an instance that
// died, and `app.relay` (with TESSERA_REDIS_URL) carries connections and seat requests for games
// played elsewhere. On shutdown, once the games' writes are done, the leases are let go at once.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { Leases } from '../cluster/leases.ts';
import { Relay } from '../cluster/relay.ts';
import type { LeaseStore } from '../cluster/lease-store.ts';
import { PostgresStore } from '../games/postgres-store.ts';
import { StoreOpenError } from '../games/store-common.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** In a cluster (TESSERA_DATABASE_URL): the store as a member; its `instance` is this one's id. */
    cluster: LeaseStore | null;
    /** In a cluster: this instance's game leases. */
    leases: Leases | null;
    /** With TESSERA_REDIS_URL: connections for games owned elsewhere are relayed there. */
    relay: Relay | null;
  }
}

export const clusterPlugin = fp(
  async (app: FastifyInstance) => {
    const { store, config } = app;
    const cluster: LeaseStore | null = store instanceof PostgresStore && store.instance ? store : null;
    app.decorate('cluster', cluster);
    if (cluster) app.log.info({ instance: cluster.instance, leaseSeconds: config.leaseSeconds, relay: config.redisUrl !== null }, 'cluster member: games in PostgreSQL, owned by lease');
  },
  { name: 'cluster', fastify: '5.x', dependencies: ['config', 'store'] },
);

export const leasesPlugin = fp(
  async (app: FastifyInstance) => {
    const { cluster, games, config } = app;
    const leases = cluster ? new Leases({ store: cluster, games, log: (app.log as Logger).child({ component: 'leases' }), spareCapacity: () => config.maxGames - games.activeCount() }) : null;
    app.decorate('leases', leases);
    if (!leases) return;
    // Once every service is up: a boot that fails takes no game over.
    app.addHook('onReady', async () => leases.start());
    // After the games' drain (registered later than theirs): the other instances may take this
    // one's games over at once.
    app.addHook('preClose', () => leases.stop());
  },
  { name: 'leases', fastify: '5.x', dependencies: ['config', 'cluster', 'games'] },
);

export const relayPlugin = fp(
  async (app: FastifyInstance) => {
    const { cluster, config, connections } = app;
    const relay =
      cluster && config.redisUrl
        ? new Relay({
            url: config.redisUrl,
            metrics: app.metrics,
            store: cluster,
            games: app.games,
            log: (app.log as Logger).child({ component: 'relay' }),
            // A game that moved on from here is followed through the same relay.
            accept: (socket, log) => connections.accept(socket, log, relay),
            maxBufferedBytes: config.maxBufferedBytes,
          })
        : null;
    app.decorate('relay', relay);
    if (!relay) return;
    try {
      await relay.start();
    } catch (e) {
      await relay.stop();
      throw new StoreOpenError(`cannot reach Redis at TESSERA_REDIS_URL: ${(e as Error).message}`, { cause: e });
    }
    app.addHook('preClose', () => relay.stop());
  },
  { name: 'relay', fastify: '5.x', dependencies: ['config', 'metrics', 'cluster', 'games', 'connections'] },
);
