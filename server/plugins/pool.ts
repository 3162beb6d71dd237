// The bot worker pool, as `app.pool`. It warms when the app is ready (listen, inject), after the
// games are back, so their bots move once it is warm; `app.poolStarted` resolves then, or
// rejects (PoolStartError) when it cannot start. Closed after the games, before the store.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { SHED_AT } from '../pool/load-policy.ts';
import { BotPool } from '../pool/pool.ts';
import { decidePoolSize } from '../pool/sizing.ts';

declare module 'fastify' {
  interface FastifyInstance {
    pool: BotPool;
    /** Resolves when every worker is warm; rejects (PoolStartError) if the pool cannot start. */
    poolStarted: Promise<void>;
  }
}

export const poolPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, metrics } = app;
    const sizing = decidePoolSize({ setting: config.botWorkers, reservedCores: config.reservedCores, cgroupRoot: config.cgroupRoot });
    const pool = new BotPool({
      sizing,
      maxQueue: config.maxQueue,
      workerFile: config.workerFile,
      workerNice: config.workerNice,
      warmupLevel: config.warmupLevel,
      warmupTimeoutMs: config.warmupTimeoutMs,
      logger: (app.log as Logger).child({ component: 'pool' }),
      metrics,
    });
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const warmed = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    let started = false;
    let failure: Error | null = null;
    warmed.catch((e: Error) => {
      failure = e;
      app.log.fatal({ err: e }, `bot pool failed to start: ${e.message}`);
    });
    app.decorate('pool', pool);
    app.decorate('poolStarted', warmed);
    app.readiness.add('pool', () => {
      if (failure) return `bot pool failed: ${failure.message}`;
      if (!pool.ready) return 'bot pool warming up';
      if (pool.load >= SHED_AT) return `bot queue at ${pool.queueDepth} of ${pool.maxQueue}`;
      return null;
    });
    // Not awaited: the server listens (and answers "warming up") while the workers warm.
    app.addHook('onReady', async () => {
      started = true;
      pool.start().then(resolve, reject);
    });
    app.addHook('onClose', async () => {
      if (started) await warmed.catch(() => {});
      await pool.close();
    });
  },
  { name: 'pool', fastify: '5.x', dependencies: ['config', 'readiness', 'metrics'] },
);
