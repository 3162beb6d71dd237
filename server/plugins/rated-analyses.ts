// Rated games analysed without anyone asking (server/profiles/rated-analyses.ts): each rated game
// this instance ends is queued, and once the pool is warm, recent ones left without an analysis.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { RatedAnalyses } from '../profiles/rated-analyses.ts';

export const ratedAnalysesPlugin = fp(
  async (app: FastifyInstance) => {
    const log = (app.log as Logger).child({ component: 'rated-analyses' });
    const rated = new RatedAnalyses({ analysis: app.analysis, record: (id) => app.games.finishedRecord(id), store: app.store, log });
    app.games.onFinished((setup) => rated.finished(setup));
    app.poolStarted
      .then(
        () => rated.recover(),
        () => {},
      )
      .catch((e: Error) => log.warn({ err: e.message }, 'rated games without an analysis could not be looked up'));
    app.addHook('preClose', async () => rated.close());
  },
  { name: 'rated-analyses', fastify: '5.x', dependencies: ['analysis', 'games', 'store', 'pool'] },
);
