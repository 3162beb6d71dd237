// The game store, as `app.store`: the one given to buildApp (tests), else PostgreSQL when
// TESSERA_DATABASE_URL is set (several instances), else one embedded SQLite file.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { PostgresStore } from '../games/postgres-store.ts';
import { SqliteStore } from '../games/sqlite-store.ts';
import type { GameStore } from '../games/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    store: GameStore;
  }
}

/** The embedded database: one file under the data directory (":memory:" keeps nothing). */
export function sqlitePath(config: Config): string {
  return config.dataDir === ':memory:' ? ':memory:' : join(config.dataDir, 'tessera.db');
}

export const storePlugin = fp(
  async (app: FastifyInstance, options: { store?: GameStore | undefined }) => {
    const { config } = app;
    const store =
      options.store ??
      (config.databaseUrl
        ? await PostgresStore.open({ url: config.databaseUrl, instance: config.instanceId ?? `${hostname()}-${randomBytes(3).toString('hex')}`, leaseMs: config.leaseSeconds * 1000 })
        : new SqliteStore({ path: sqlitePath(config), walCheckpoints: 'thread', moveWrites: 'thread', threadNice: config.workerNice, log: app.log }));
    app.decorate('store', store);
    // Registered before the pool and the games, so closed after them.
    app.addHook('onClose', () => store.close());
  },
  { name: 'store', fastify: '5.x', dependencies: ['config'] },
);
