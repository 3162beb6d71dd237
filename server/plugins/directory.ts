// How a game is reached, as `app.directory`, chosen from the configuration: alone, every game is
// played here and the unfinished ones come back from the store at boot; with TESSERA_DATABASE_URL
// this instance is one of a cluster (server/cluster/), holding games by lease and reaching the
// others' through Redis (TESSERA_REDIS_URL). On shutdown, once the games' writes are done, a
// cluster member's leases end at once.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { ClusterDirectory } from '../cluster/directory.ts';
import type { LeaseStore } from '../cluster/lease-store.ts';
import type { GameDirectory } from '../directory/directory.ts';
import { LocalDirectory } from '../directory/local.ts';
import { StoreOpenError } from '../storage/errors.ts';
import { sqlitePath } from './store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    directory: GameDirectory;
  }
}

async function alone(app: FastifyInstance): Promise<void> {
  const { games, config } = app;
  app.decorate('directory', new LocalDirectory(games));
  try {
    await games.restore();
  } catch (e) {
    // A file that opened but cannot be read through (a damaged database).
    if ((e as NodeJS.ErrnoException).code !== 'ERR_SQLITE_ERROR') throw e;
    throw new StoreOpenError(`cannot use the database ${sqlitePath(config)}: ${(e as Error).message}`, { cause: e });
  }
}

async function clusterMember(app: FastifyInstance): Promise<void> {
  const { store, games, config } = app;
  const leases = app.backend.leases;
  if (leases?.instance == null) throw new Error('TESSERA_DATABASE_URL is set: the database must keep leases (PostgreSQL), with this instance’s id');
  const directory = new ClusterDirectory({
    store,
    leases: leases as LeaseStore & { readonly instance: string },
    games,
    metrics: app.metrics,
    log: app.log as Logger,
    redisUrl: config.redisUrl,
    spareCapacity: () => config.maxGames - games.activeCount(),
    maxBufferedBytes: config.maxBufferedBytes,
    // Connections are a later plugin; a client from another instance only comes once the app is up.
    serve: (peer, log, playerId) => app.connections.accept(peer, log, playerId),
  });
  app.decorate('directory', directory);
  app.log.info({ instance: directory.instance, leaseSeconds: config.leaseSeconds, relay: config.redisUrl !== null }, 'cluster member: games in PostgreSQL, owned by lease');
  await directory.connectRelay();
  app.addHook('onReady', async () => directory.start());
  // After the games' drain (registered later than theirs).
  app.addHook('preClose', () => directory.stop());
}

export const directoryPlugin = fp(async (app: FastifyInstance) => (app.config.databaseUrl ? clusterMember(app) : alone(app)), {
  name: 'directory',
  fastify: '5.x',
  dependencies: ['config', 'metrics', 'store', 'games'],
});
