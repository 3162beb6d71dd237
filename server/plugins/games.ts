// Every game of this instance (server/games/service.ts), as `app.games`. The games it holds (from
// the store at boot, or handed over: plugins/directory.ts) move their bots once the pool is warm.
// On shutdown, bot searches in flight may finish and be stored before the sockets close.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { GameService } from '../games/service.ts';
import { PoolHints } from '../hints.ts';

declare module 'fastify' {
  interface FastifyInstance {
    games: GameService;
  }
}

export const gamesPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, metrics, pool } = app;
    const games = new GameService({
      store: app.watched.games,
      storeFailing: () => app.watched.games.failing(),
      bots: app.botScheduler,
      hints: new PoolHints({ pool, metrics, budgetMs: config.botDeadlineMs, maxWaitMs: config.hintWaitMs }),
      log: app.log as Logger,
      metrics,
      maxGames: config.maxGames,
      // Its own store's health is create()'s first check.
      overloaded: () => app.readiness.problem('shutdown', 'pool'),
      expiry: config,
      finishedCache: config.finishedCache,
    });
    app.decorate('games', games);
    app.readiness.add('storage', () => app.watched.games.problem());
    app.addHook('preClose', () => games.drain(config.shutdownGraceMs));
    app.addHook('onClose', async () => games.close());
    app.poolStarted.then(
      () => games.resumeBots(),
      () => {},
    );
  },
  { name: 'games', fastify: '5.x', dependencies: ['config', 'readiness', 'metrics', 'store', 'pool', 'bot-scheduler'] },
);
