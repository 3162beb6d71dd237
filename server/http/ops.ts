// Operations endpoints: liveness, readiness (pool warm and not overloaded), Prometheus
// metrics, and the pool's JSON summary that the dashboard and benchmarks read.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Counter } from 'prom-client';
import { PoolReport } from '../wire/pool.ts';

const statusSchema = { type: 'object', properties: { status: { type: 'string' }, reason: { type: 'string' } }, required: ['status'] } as const;

async function routes(root: FastifyInstance): Promise<void> {
  // Replies typed from the route schemas.
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { pool, games, metrics } = app;

  app.get('/healthz', { schema: { tags: ['ops'], summary: 'Liveness: the process answers', response: { 200: statusSchema } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    { schema: { tags: ['ops'], summary: 'Ready: every bot worker is warm and the pool is not overloaded', response: { 200: statusSchema, 503: statusSchema } } },
    async (_request, reply) => {
      const reason = app.readiness.problem();
      if (reason) return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', reason });
      return { status: 'ready' };
    },
  );

  app.get('/metrics', { schema: { tags: ['ops'], summary: 'Prometheus metrics', produces: ['text/plain'], response: { 200: { type: 'string' } } } }, async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.render();
  });

  app.get(
    '/api/pool',
    { schema: { tags: ['ops'], summary: 'Bot pool summary: sizing, per-worker spawn cost against compute, task histograms, event loop, counters', response: { 200: PoolReport } } },
    async () => {
      const counter = async (c: Counter<string>) => (await c.get()).values.reduce((n, v) => n + v.value, 0);
      const byLabel = async (c: Counter<string>, label: string) => Object.fromEntries((await c.get()).values.map((v) => [String(v.labels[label]), v.value]));
      return {
        ...pool.summary(),
        eventLoop: metrics.sampleEventLoop(),
        counters: {
          respawns: await counter(metrics.respawns),
          degraded: await byLabel(metrics.degraded, 'step'),
          shed: await counter(metrics.shed),
          deadlineHits: await counter(metrics.deadlineHits),
          searchFailures: await byLabel(metrics.searchFailures, 'reason'),
          botMoves: await byLabel(metrics.botMoves, 'source'),
        },
        games: games.activeCount(),
        sockets: app.connections.count,
      };
    },
  );
}

/** Encapsulated (its hooks and limits stay its own), refused at boot without the services it uses. */
export const opsRoutes = fp(routes, { name: 'ops-routes', fastify: '5.x', encapsulate: true, dependencies: ['readiness', 'metrics', 'pool', 'games', 'connections'] });
