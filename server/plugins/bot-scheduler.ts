// Bot moves through the pool, with deadlines and the main-thread fallback, as `app.botScheduler`.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { BotScheduler } from '../games/bot-scheduler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    botScheduler: BotScheduler;
  }
}

export const botSchedulerPlugin = fp(
  async (app: FastifyInstance) => {
    const scheduler = new BotScheduler({ pool: app.pool, metrics: app.metrics, deadlineMs: app.config.botDeadlineMs, logger: app.log as Logger });
    app.decorate('botScheduler', scheduler);
    // Searches the games' drain (preClose) did not wait for are aborted once the games are
    // closed, before the pool closes (onClose runs in reverse registration order).
    app.addHook('onClose', async () => scheduler.close());
  },
  { name: 'bot-scheduler', fastify: '5.x', dependencies: ['config', 'metrics', 'pool'] },
);
