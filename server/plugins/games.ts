// Every game of this instance (server/games/service.ts), as `app.games`. Unfinished games come
// back at once (people can reconnect; in a cluster they come through their leases instead), and
// their bots move once the pool is warm. On shutdown, bot searches in flight may finish and be
// stored before the sockets close.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { GameService } from '../games/service.ts';
import { StoreOpenError } from '../games/store-common.ts';
import { openGames } from '../games/store-operations.ts';
import { PoolHints } from '../hints.ts';
import { sqlitePath } from './store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    games: GameService;
  }
}

export const gamesPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, metrics, pool, cluster } = app;
    const games = new GameService({
      store: app.store,
      bots: app.botScheduler,
      hints: new PoolHints({ pool, metrics, budgetMs: config.botDeadlineMs, maxWaitMs: config.hintWaitMs }),
      log: app.log as Logger,
      metrics,
      maxGames: config.maxGames,
      // Its own store's health is create()'s first check.
      overloaded: () => app.readiness.problem('shutdown', 'pool'),
      expiry: config,
      finishedCache: config.finishedCache,
      ...(cluster ? { takeOver: (id: string) => cluster.claim(id), listOpen: (limit: number) => openGames(app.store, limit), setAside: (id: string) => cluster.setAside(id) } : {}),
    });
    app.decorate('games', games);
    app.readiness.add('storage', () => games.storageProblem());
    app.addHook('preClose', () => games.drain(config.shutdownGraceMs));
    app.addHook('onClose', async () => games.close());
    app.poolStarted.then(
      () => games.resumeBots(),
      () => {},
    );
    if (cluster) return;
    try {
      await games.restore();
    } catch (e) {
      // A file that opened but cannot be read through (a damaged database).
      if ((e as NodeJS.ErrnoException).code !== 'ERR_SQLITE_ERROR') throw e;
      throw new StoreOpenError(`cannot use the database ${sqlitePath(config)}: ${(e as Error).message}`, { cause: e });
    }
  },
  { name: 'games', fastify: '5.x', dependencies: ['config', 'readiness', 'metrics', 'store', 'cluster', 'pool', 'bot-scheduler'] },
);
