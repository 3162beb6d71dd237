// Game HTTP API: create a game, list open ones, take a seat, a game's public summary, and a
// finished game's record.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BOT_LEVELS } from '../../bot-engine/bots/levels.ts';
import { MAX_PLAYERS, MAX_SEATS } from '../../bot-engine/state.ts';
import type { ReadableGame } from '../games/records.ts';
import { validName } from '../players/names.ts';
import { GamesPerIp } from './games-per-ip.ts';
import { CodedError } from '../errors.ts';
import {
  CreateGameBody,
  FinishedGames,
  FinishedGamesQuery,
  GameRecordReply,
  GameSummary,
  IdParams,
  JoinBody,
  OpenGames,
  OpenGamesQuery,
  RematchBody,
  SeatGrant,
  type SeatRequest,
} from '../wire/api.ts';
import type { SeatSetup } from '../games/store.ts';

const error = { $ref: 'Error#' } as const;
const errors = { 400: error, 404: error, 409: error } as const;

function summary(room: ReadableGame): GameSummary {
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
    ...(view.rated ? { rated: true } : {}),
  };
}

async function routes(root: FastifyInstance): Promise<void> {
  // Requests and replies typed from the route schemas.
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { games, directory, config, players } = app;
  // Each route that creates state allows so many calls a minute per client address.
  const limited = { rateLimit: { max: config.createsPerMinute, timeWindow: 60_000 } };
  const perIp = new GamesPerIp(config.gamesPerIp, (id) => games.unfinished(id), config.maxGames);
  const readable = async (id: string): Promise<ReadableGame> => {
    const game = await directory.read(id);
    if (!game) throw new CodedError('unknown_game', `no game ${JSON.stringify(id)}`);
    return game;
  };

  /** The players challenged by name into seats at creation (by seat): an unknown name, or one
   * named twice, is refused before anything is made. */
  const challengedPlayers = async (seats: SeatRequest[]): Promise<({ id: string; name: string } | null)[]> => {
    const found = await Promise.all(
      seats.map(async (s, i) => {
        if (s.player === undefined) return null;
        if (s.kind !== 'person') throw new CodedError('bad_request', `seat ${i} is a bot: only a person seat is kept for a challenged player`);
        const player = await players.playerByName(s.player);
        if (!player) throw new CodedError('unknown_player', `no player is named ${JSON.stringify(s.player)}: a challenge names a player of this server`);
        return { id: player.id, name: player.name };
      }),
    );
    const ids = found.flatMap((p) => (p ? [p.id] : []));
    if (new Set(ids).size < ids.length) throw new CodedError('bad_request', 'a player is challenged into one seat only');
    return found;
  };

  /** A rated game between people seats only players with a passkey: a guest costs nothing to
   * make, so two of them could trade wins (docs/RATINGS.md). Guests play rated games against bots. */
  const refuseGuestInRatedGame = async (gameId: string, playerId: string | undefined): Promise<void> => {
    if (!playerId) return; // the room answers `sign_in_required`
    const { setup } = await readable(gameId);
    if (!setup.rated || setup.seats.filter((s) => s.kind === 'person').length < 2) return;
    if ((await players.passkeys(playerId)).length === 0)
      throw new CodedError('passkey_required', 'this rated game is between people: its seats are for players with a passkey (add one to your player), not guests');
  };

  app.post(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        summary: `Create a game: 2 to ${MAX_PLAYERS} seats (${MAX_SEATS} with Inns & Cathedrals), each a person or a bot with its level; at least one person`,
        body: CreateGameBody,
        response: { 201: GameSummary, ...errors, 429: error, 503: error },
      },
      config: limited,
    },
    async (request, reply) => {
      const { seats, rules, clock, standIn, listed, hints, rated, pace } = request.body;
      for (const [i, s] of seats.entries()) {
        if (s.kind === 'bot' && !s.level) throw new CodedError('bad_request', `seat ${i} is a bot: give its level (${BOT_LEVELS.join(', ')})`);
        if (s.kind === 'person' && s.level) throw new CodedError('bad_request', `seat ${i} is a person: it has no level`);
      }
      const people = seats.filter((s) => s.kind === 'person').length;
      if (people === 0) throw new CodedError('bad_request', 'a game needs at least one person seat');
      if (hints && people > 1) throw new CodedError('bad_request', 'hints are for one person against bots, never in a game with other people');
      if (hints && rated) throw new CodedError('bad_request', 'a rated game has no hints: the strongest move would be the engine’s, not the player’s');
      const turnBased = pace?.kind === 'turnBased' ? pace : undefined;
      if (turnBased && clock?.turnSeconds != null) throw new CodedError('bad_request', 'a turn-based game has days per move (pace.moveDays), not a turn clock of seconds');
      const challenged = await challengedPlayers(seats);
      const placed = perIp.reserve(request.ip);
      let id: string | null = null;
      try {
        const created = await games.create({
          seats: seats.map((s, i): SeatSetup => {
            if (s.kind === 'bot') return { kind: 'bot', level: s.level };
            const player = challenged[i];
            return player ? { kind: 'person', player } : { kind: 'person' };
          }),
          rules,
          clock,
          standIn,
          listed,
          hints,
          rated,
          pace: turnBased,
          ...(request.player ? { createdBy: { id: request.player.id, name: request.player.name } } : {}),
        });
        id = created.id;
        return reply.code(201).send(summary(created));
      } finally {
        placed(id);
      }
    },
  );

  app.get(
    '/api/games',
    { schema: { tags: ['games'], summary: 'Games created as listed that have an open seat, newest first', querystring: OpenGamesQuery, response: { 200: OpenGames } } },
    async (request) => ({ games: (await directory.listOpen(request.query.limit)).map(summary) }),
  );

  app.post(
    '/api/games/:id/seats',
    {
      schema: {
        tags: ['games'],
        summary: 'Take an open person seat; returns the seat token (shown only here) for the WebSocket hello',
        params: IdParams,
        body: JoinBody,
        response: { 201: SeatGrant, ...errors, 403: error, 429: error, 503: error },
      },
      config: limited,
    },
    async (request, reply) => {
      const id = request.params.id;
      // A signed-in player sits under their player name, and the seat is theirs on any device;
      // anyone else types a name under the players' rule, and may not pass for a player.
      const name = request.player?.name ?? validName(request.body.name);
      if (!request.player && (await players.nameHeld(name))) {
        throw new CodedError('name_taken', `a player is named ${JSON.stringify(name)} (or a name that looks the same): sign in as them, or choose another name`);
      }
      await refuseGuestInRatedGame(id, request.player?.id);
      const taken = await directory.takeSeat(id, name, request.body.seat, false, request.player?.id);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ gameId: id, ...taken });
    },
  );

  app.get(
    '/api/games/finished',
    {
      schema: {
        tags: ['games'],
        summary:
          "Finished games that were listed or rated (not invite-only ones), most recent first, with final scores; `player` filters by a person's name; page with `before` = the previous page's `next`",
        querystring: FinishedGamesQuery,
        response: { 200: FinishedGames, 400: error },
      },
    },
    async (request) => {
      try {
        // An invite-only game is its players' business: listed here once listed or rated, as on profiles.
        return await games.finished({ ...request.query, publicOnly: true });
      } catch (e) {
        if (e instanceof RangeError) throw new CodedError('bad_request', e.message);
        throw e;
      }
    },
  );

  app.post(
    '/api/games/:id/rematch',
    {
      schema: {
        tags: ['games'],
        summary:
          'From a finished game, the same seats start a new game: each person asks with their seat token of the finished game (or, signed in, as the player who held the seat) and gets their seat (same seat, same name) in the rematch, with a new token',
        params: IdParams,
        body: RematchBody,
        response: { 201: SeatGrant, ...errors, 403: error, 429: error, 503: error },
      },
      config: limited,
    },
    async (request, reply) => {
      await refuseGuestInRatedGame(request.params.id, request.player?.id);
      const { gameId, name, seat } = await games.rematch(request.params.id, { token: request.body.token, playerId: request.player?.id });
      const taken = await directory.takeSeat(gameId, name, seat, true, request.player?.id);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ gameId, ...taken } satisfies SeatGrant);
    },
  );

  app.get('/api/games/:id', { schema: { tags: ['games'], summary: "A game's public summary", params: IdParams, response: { 200: GameSummary, ...errors, 503: error } } }, async (request) =>
    summary(await readable(request.params.id)),
  );

  app.get(
    '/api/games/:id/record',
    {
      schema: {
        tags: ['games'],
        summary: "A finished game's tessera-game/1 record (replay it with `npm run replay`)",
        params: IdParams,
        response: { 200: GameRecordReply, ...errors },
      },
    },
    async (request) => {
      const record = await games.finishedRecord(request.params.id);
      if (!record) throw new CodedError('unknown_game', `no game ${JSON.stringify(request.params.id)}`);
      if (record === 'not_finished') throw new CodedError('not_finished', 'the record is published when the game is over (it holds the seed, hence the bag order)');
      return record;
    },
  );
}

/** Encapsulated (its hooks and limits stay its own), refused at boot without the services it uses. */
export const gameRoutes = fp(routes, { name: 'game-routes', fastify: '5.x', encapsulate: true, dependencies: ['config', 'games', 'directory', 'session', 'players'] });
