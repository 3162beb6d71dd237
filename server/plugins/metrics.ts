// Prometheus metrics (server/metrics.ts), as `app.metrics`; closed last.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Metrics } from '../metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const metrics = new Metrics();
    app.decorate('metrics', metrics);
    app.addHook('onClose', async () => metrics.close());
  },
  { name: 'metrics', fastify: '5.x' },
);
