// Game analysis over HTTP: ask for it, read it (or its progress), and follow it as server-sent
// events. The work itself runs on idle bot workers (server/analysis/service.ts).

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';
import { CodedError } from '../errors.ts';
import { DamagedGameError } from '../games/store.ts';
import { IdParams } from '../wire/api.ts';
import { AnalysisAnswer, AnalysisNotAsked, AnalysisProgress, AnalysisQuery, GameAnalysis } from '../wire/analysis.ts';

const error = { $ref: 'Error#' } as const;
/** SSE comment lines keep proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

async function routes(root: FastifyInstance): Promise<void> {
  // Requests and replies typed from the route schemas.
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { games, analysis, config } = app;
  const streams = new Set<() => void>();
  // Open event streams would hold the server's close: end them first.
  app.addHook('preClose', async () => {
    for (const stop of streams) stop();
  });
  const notFinished = () => new CodedError('not_finished', 'a game is analysed once it is over');
  const finishedRecord = async (id: string) => {
    const record = await games.finishedRecord(id);
    if (!record) throw new CodedError('unknown_game', `no game ${JSON.stringify(id)}`);
    if (record === 'not_finished') throw notFinished();
    return record;
  };
  const unknownOrNotAsked = async (id: string): Promise<never> => {
    const exists = await games.finishedRecord(id).catch((e) => {
      if (e instanceof DamagedGameError) throw e;
      return true;
    });
    if (!exists) throw new CodedError('unknown_game', `no game ${JSON.stringify(id)}`);
    throw new CodedError('no_analysis', 'this game has not been analysed: POST /api/games/{id}/analysis first');
  };

  app.post(
    '/api/games/:id/analysis',
    {
      schema: {
        tags: ['games'],
        summary: 'Analyse a finished game: every move against the expert search, from its mover’s view. 202 with the queue position while it waits or runs, 200 once done',
        params: IdParams,
        response: { 200: GameAnalysis, 202: AnalysisProgress, 404: error, 409: error, 429: error },
      },
      config: { rateLimit: { max: config.createsPerMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const id = request.params.id;
      const known = await analysis.status(id);
      if (known && known.status !== 'failed') return reply.code(known.status === 'done' ? 200 : 202).send(known);
      // A full queue throws AnalysisQueueFullError: 429 with Retry-After.
      const answer = analysis.request(id, await finishedRecord(id)) ?? (await analysis.status(id));
      // A queued job is answered as running until its result is stored: never nothing.
      if (!answer) throw new Error(`analysis of ${id} queued but not found`);
      return reply.code(answer.status === 'done' ? 200 : 202).send(answer);
    },
  );

  app.get(
    '/api/games/:id/analysis',
    {
      schema: {
        tags: ['games'],
        summary: 'A game’s analysis, or its progress while it waits or runs; with `orNone=true`, `{status: "none"}` for a finished game nobody asked to analyse',
        params: IdParams,
        querystring: AnalysisQuery,
        response: { 200: Type.Union([AnalysisAnswer, AnalysisNotAsked]), 404: error, 409: error },
      },
    },
    async (request) => {
      const id = request.params.id;
      const known = await analysis.status(id);
      if (known) return known;
      if (!request.query.orNone) return unknownOrNotAsked(id);
      // Unknown and unfinished games answer as ever: only "not asked" becomes a 200.
      await finishedRecord(id);
      return { gameId: id, status: 'none' as const };
    },
  );

  app.get(
    '/api/games/:id/analysis/events',
    {
      schema: {
        tags: ['games'],
        summary: 'Server-sent events: a `progress` event per analysed position, then `done` with the analysis (or `failed`), and the stream ends; at once if it is stored',
        params: IdParams,
        produces: ['text/event-stream'],
        response: { 404: error },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const first = (await analysis.status(id)) ?? (await unknownOrNotAsked(id));
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      const final = (a: typeof first) => a.status === 'done' || a.status === 'failed';
      const send = (a: typeof first) => raw.write(`event: ${final(a) ? a.status : 'progress'}\ndata: ${JSON.stringify(a)}\n\n`);
      const keepalive = setInterval(() => raw.write(': keepalive\n\n'), KEEPALIVE_MS);
      const onUpdate = (a: typeof first) => {
        if (a.gameId !== id) return;
        send(a);
        if (final(a)) stop();
      };
      const stop = () => {
        if (!streams.delete(stop)) return;
        clearInterval(keepalive);
        analysis.off('update', onUpdate);
        raw.end();
      };
      streams.add(stop);
      raw.on('close', stop);
      send(first);
      if (final(first)) stop();
      else analysis.on('update', onUpdate);
    },
  );
}

/** Encapsulated (its hooks and limits stay its own), refused at boot without the services it uses. */
export const analysisRoutes = fp(routes, { name: 'analysis-routes', fastify: '5.x', encapsulate: true, dependencies: ['config', 'games', 'analysis'] });
