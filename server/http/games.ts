// Game HTTP API: create a game, list open ones, take a seat, a game's public summary, and a
// finished game's record.

import type { FastifyInstance } from 'fastify';
import { BOT_LEVELS, type BotLevel } from '../../bot-engine/bots/levels.ts';
import { MAX_PLAYERS } from '../../bot-engine/state.ts';
import type { Room } from '../games/room.ts';
import { ApiError } from '../errors.ts';

const rulesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { tinyCity: { type: 'boolean', default: false }, farmers: { type: 'string', enum: ['1st', '2nd', '3rd'], default: '3rd' } },
} as const;

const seatSchema = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: { kind: { type: 'string', enum: ['person', 'bot'] }, level: { type: 'string', enum: [...BOT_LEVELS] } },
} as const;

const seatSummary = {
  type: 'object',
  properties: {
    seat: { type: 'integer' },
    kind: { type: 'string' },
    level: { type: 'string' },
    name: { type: ['string', 'null'] },
    connected: { type: 'boolean' },
    standIn: { type: ['string', 'null'], enum: ['clock', 'away', null], description: "why a bot plays this person's seat for now, or null" },
    score: { type: 'integer' },
    followers: { type: 'integer' },
    points: { type: 'object', properties: { city: { type: 'integer' }, road: { type: 'integer' }, monastery: { type: 'integer' }, farm: { type: 'integer' } } },
  },
} as const;

const gameSummary = {
  type: 'object',
  required: ['id', 'status', 'seats'],
  properties: {
    id: { type: 'string' },
    createdAt: { type: 'string' },
    status: { type: 'string', enum: ['waiting', 'playing', 'finished'] },
    rules: rulesSchema,
    turn: { type: 'integer' },
    seats: { type: 'array', items: seatSummary },
    openSeats: { type: 'array', items: { type: 'integer' } },
    currentSeat: { type: ['integer', 'null'] },
    tile: { type: ['string', 'null'] },
    tilesLeft: { type: 'integer' },
    botThinking: { type: 'boolean' },
    clock: { type: 'object', properties: { turnSeconds: { type: ['integer', 'null'] }, deadline: { type: ['number', 'null'] } } },
    rematch: { type: ['string', 'null'] },
  },
} as const;

const clockSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'turn clock: seconds per turn (null: none; default none for one person against bots, 120 with more people) and seconds a person may stay away before a stand-in bot plays for them',
  properties: { turnSeconds: { type: ['integer', 'null'], minimum: 1, maximum: 3600 }, graceSeconds: { type: 'integer', minimum: 1, maximum: 3600 } },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } } as const;
const errors = { 400: { $ref: 'Error#' }, 404: { $ref: 'Error#' }, 409: { $ref: 'Error#' } } as const;

function summary(room: Room) {
  const view = room.view(null);
  return {
    id: room.id,
    createdAt: room.setup.createdAt,
    status: view.status,
    rules: view.rules,
    turn: view.turn,
    seats: view.seats,
    openSeats: room.openSeats,
    currentSeat: view.currentSeat,
    tile: view.tile,
    tilesLeft: view.tilesLeft,
    botThinking: view.botThinking,
    clock: view.clock,
    rematch: view.rematch,
  };
}

interface CreateBody {
  seats: { kind: 'person' | 'bot'; level?: BotLevel }[];
  rules?: { tinyCity?: boolean; farmers?: '1st' | '2nd' | '3rd' };
  clock?: { turnSeconds?: number | null; graceSeconds?: number };
  standIn?: BotLevel;
}

export async function gameRoutes(app: FastifyInstance): Promise<void> {
  const { games } = app.tessera;
  const room = (id: string): Room => {
    const r = games.get(id);
    if (!r) throw new ApiError('unknown_game', `no game ${JSON.stringify(id)}`);
    return r;
  };

  app.post<{ Body: CreateBody }>(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        summary: `Create a game: 2 to ${MAX_PLAYERS} seats, each a person or a bot with its level; at least one person`,
        body: {
          type: 'object',
          required: ['seats'],
          additionalProperties: false,
          properties: {
            seats: { type: 'array', minItems: 2, maxItems: MAX_PLAYERS, items: seatSchema },
            rules: rulesSchema,
            clock: clockSchema,
            standIn: { type: 'string', enum: [...BOT_LEVELS], description: 'level of the bot that plays for a timed-out or absent person (default heuristic)' },
          },
        },
        response: { 201: gameSummary, ...errors, 503: { $ref: 'Error#' } },
      },
    },
    async (request, reply) => {
      const { seats, rules, clock, standIn } = request.body;
      for (const [i, s] of seats.entries()) {
        if (s.kind === 'bot' && !s.level) throw new ApiError('bad_request', `seat ${i} is a bot: give its level (${BOT_LEVELS.join(', ')})`);
        if (s.kind === 'person' && s.level) throw new ApiError('bad_request', `seat ${i} is a person: it has no level`);
      }
      if (!seats.some((s) => s.kind === 'person')) throw new ApiError('bad_request', 'a game needs at least one person seat');
      const created = games.create({ seats: seats.map((s) => (s.kind === 'bot' ? { kind: 'bot', level: s.level } : { kind: 'person' })), rules, clock, standIn });
      return reply.code(201).send(summary(created));
    },
  );

  app.get(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        summary: 'Games with an open seat, newest first',
        querystring: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } } },
        response: { 200: { type: 'object', properties: { games: { type: 'array', items: gameSummary } } } },
      },
    },
    async (request) => ({ games: games.open((request.query as { limit: number }).limit).map(summary) }),
  );

  app.post<{ Params: { id: string }; Body: { name: string; seat?: number } }>(
    '/api/games/:id/seats',
    {
      schema: {
        tags: ['games'],
        summary: 'Take an open person seat; returns the seat token (shown only here) for the WebSocket hello',
        params: idParams,
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1, maxLength: 32, pattern: '\\S' }, seat: { type: 'integer', minimum: 0, maximum: MAX_PLAYERS - 1 } },
        },
        response: { 201: { type: 'object', required: ['gameId', 'seat', 'token'], properties: { gameId: { type: 'string' }, seat: { type: 'integer' }, token: { type: 'string' } } }, ...errors },
      },
    },
    async (request, reply) => {
      const r = room(request.params.id);
      const result = r.join(request.body.name.trim(), request.body.seat);
      if ('error' in result) throw new ApiError(result.error, result.message);
      return reply.code(201).header('cache-control', 'no-store').send({ gameId: r.id, seat: result.seat, token: result.token });
    },
  );

  app.get<{ Querystring: { limit: number; before?: string; player?: string } }>(
    '/api/games/finished',
    {
      schema: {
        tags: ['games'],
        summary: "Finished games, most recent first, with final scores; `player` filters by a person's name; page with `before` = the previous page's `next`",
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, before: { type: 'string', maxLength: 200 }, player: { type: 'string', minLength: 1, maxLength: 32 } },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              games: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    createdAt: { type: 'string' },
                    finishedAt: { type: 'string' },
                    rules: rulesSchema,
                    players: {
                      type: 'array',
                      items: { type: 'object', properties: { seat: { type: 'integer' }, name: { type: 'string' }, kind: { type: 'string' }, level: { type: 'string' }, score: { type: 'integer' } } },
                    },
                  },
                },
              },
              next: { type: ['string', 'null'] },
            },
          },
          400: { $ref: 'Error#' },
        },
      },
    },
    async (request) => {
      try {
        return games.finished(request.query);
      } catch (e) {
        if (e instanceof RangeError) throw new ApiError('bad_request', e.message);
        throw e;
      }
    },
  );

  app.post<{ Params: { id: string }; Body: { token: string } }>(
    '/api/games/:id/rematch',
    {
      schema: {
        tags: ['games'],
        summary:
          'From a finished game, the same seats start a new game: each person asks with their seat token of the finished game and gets their seat (same seat, same name) in the rematch, with a new token',
        params: idParams,
        body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: { type: 'string', minLength: 1, maxLength: 128 } } },
        response: {
          201: { type: 'object', required: ['gameId', 'seat', 'token'], properties: { gameId: { type: 'string' }, seat: { type: 'integer' }, token: { type: 'string' } } },
          ...errors,
          403: { $ref: 'Error#' },
          503: { $ref: 'Error#' },
        },
      },
    },
    async (request, reply) => {
      const { room: created, seat, token } = games.rematch(request.params.id, request.body.token);
      return reply.code(201).header('cache-control', 'no-store').send({ gameId: created.id, seat, token });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/games/:id',
    { schema: { tags: ['games'], summary: "A game's public summary", params: idParams, response: { 200: gameSummary, ...errors } } },
    async (request) => summary(room(request.params.id)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/games/:id/record',
    {
      schema: {
        tags: ['games'],
        summary: "A finished game's tessera-game/1 record (replay it with `npm run replay`)",
        params: idParams,
        response: {
          200: {
            type: 'object',
            additionalProperties: true,
            required: ['format', 'players', 'moves'],
            properties: {
              format: { type: 'string' },
              players: { type: 'array', items: { type: 'string' } },
              seed: { type: 'string' },
              moves: { type: 'array', items: { type: 'object', additionalProperties: true } },
              final: { type: 'boolean' },
            },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      const r = room(request.params.id);
      if (r.status !== 'finished') throw new ApiError('not_finished', 'the record is published when the game is over (it holds the seed, hence the bag order)');
      return r.record();
    },
  );
}
