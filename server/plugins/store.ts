// The database, opened once and handing out every store it keeps: the one given to buildApp
// (tests), else PostgreSQL when TESSERA_DATABASE_URL is set (several instances), else one
// embedded SQLite file. Its writes are watched here, once (storage/watched/): a failing write,
// a game's or a player's, shows in /readyz and /metrics until one commits again.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { PlayerStore } from '../players/store.ts';
import type { LeaseStore } from '../cluster/lease-store.ts';
import type { Config } from '../config.ts';
import type { GameStore } from '../games/store.ts';
import type { RatingStore } from '../ratings/store.ts';
import type { PushStore } from '../push/store.ts';
import { postgresBackend } from '../storage/postgres/backend.ts';
import { sqliteBackend } from '../storage/sqlite/backend.ts';
import { watchedPlayers } from '../storage/watched/players.ts';
import { WatchedStore } from '../storage/watched/games.ts';

/** One database's stores, opened together over one connection (or pool) and one transaction
 * discipline: storage/sqlite/, storage/postgres/ or storage/memory/. */
export interface Backend {
  readonly games: GameStore;
  readonly players: PlayerStore;
  readonly ratings: RatingStore;
  /** Web Push: the VAPID keys, the players' devices, the notifications claimed. */
  readonly push: PushStore;
  /** The cluster's leases, where the database serves several instances; else null. */
  readonly leases: LeaseStore | null;
  close(): Promise<void>;
}

/** The games' and the players' stores with their writes watched by one WatchedStore: its
 * problem() is the database's readiness. */
export interface WatchedStores {
  readonly games: WatchedStore;
  readonly players: PlayerStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The database's stores as opened. */
    backend: Backend;
    /** The game store, unwatched (analyses, profiles, the cluster). */
    store: GameStore;
    /** The stores whose writes are watched, together: one failure count for the database. */
    watched: WatchedStores;
  }
}

/** The embedded database: one file under the data directory (":memory:" keeps nothing). */
export function sqlitePath(config: Config): string {
  return config.dataDir === ':memory:' ? ':memory:' : join(config.dataDir, 'tessera.db');
}

function openBackend(app: FastifyInstance): Promise<Backend> | Backend {
  const { config } = app;
  if (config.databaseUrl) return postgresBackend({ url: config.databaseUrl, instance: config.instanceId ?? `${hostname()}-${randomBytes(3).toString('hex')}`, leaseMs: config.leaseSeconds * 1000 });
  return sqliteBackend({ path: sqlitePath(config), walCheckpoints: 'thread', moveWrites: 'thread', threadNice: config.workerNice, log: app.log });
}

export const storePlugin = fp(
  async (app: FastifyInstance, options: { backend?: Backend | undefined }) => {
    const backend = options.backend ?? (await openBackend(app));
    const games = new WatchedStore(backend.games, app.metrics, app.log as Logger);
    app.decorate('backend', backend);
    app.decorate('store', backend.games);
    app.decorate('watched', { games, players: watchedPlayers(backend.players, (op, fn) => games.write(op, fn)) });
    // Registered before the pool and the games, so closed after them.
    app.addHook('onClose', () => backend.close());
  },
  { name: 'store', fastify: '5.x', dependencies: ['config', 'metrics'] },
);
