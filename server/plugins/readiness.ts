// Readiness and the shutdown gate. /readyz asks each service that registered a check for its
// problem, in registration order (shutdown, pool, storage); from the first shutdown step on, every
// request but the probes is refused, which the probes keep answering in their own shape.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../http/errors.ts';

export type ReadinessCheck = 'shutdown' | 'pool' | 'storage';

export class Readiness {
  closing = false;
  private readonly checks: { name: ReadinessCheck; problem: () => string | null }[] = [];

  constructor() {
    this.add('shutdown', () => (this.closing ? 'shutting down' : null));
  }

  add(name: ReadinessCheck, problem: () => string | null): void {
    this.checks.push({ name, problem });
  }

  /** The first problem among the named checks (every check when none is named), or null. */
  problem(...only: ReadinessCheck[]): string | null {
    for (const check of this.checks) {
      if (only.length > 0 && !only.includes(check.name)) continue;
      const problem = check.problem();
      if (problem) return problem;
    }
    return null;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

const PROBES = new Set(['/healthz', '/readyz']);

export const readinessPlugin = fp(
  async (app: FastifyInstance) => {
    const readiness = new Readiness();
    app.decorate('readiness', readiness);
    app.addHook('onRequest', async (request, reply) => {
      if (readiness.closing && !PROBES.has(request.url)) return sendError(reply.header('connection', 'close'), 'shutting_down', 'the server is shutting down; retry in a few seconds', 5);
    });
    // Registered first, so the first preClose step: new work is refused from here on.
    app.addHook('preClose', async () => {
      readiness.closing = true;
    });
  },
  { name: 'readiness', fastify: '5.x' },
);
