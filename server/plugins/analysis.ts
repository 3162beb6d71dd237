// Game analysis on idle bot workers (server/analysis/service.ts), as `app.analysis`.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { AnalysisService } from '../analysis/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    analysis: AnalysisService;
  }
}

export const analysisPlugin = fp(
  async (app: FastifyInstance) => {
    const analysis = new AnalysisService({ pool: app.pool, store: app.store, log: (app.log as Logger).child({ component: 'analysis' }), maxJobs: app.config.maxAnalyses });
    app.decorate('analysis', analysis);
    // Queued analyses are dropped before the games drain (they can be asked for again).
    app.addHook('preClose', async () => analysis.close());
  },
  { name: 'analysis', fastify: '5.x', dependencies: ['config', 'pool', 'store'] },
);
