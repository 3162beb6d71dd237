// The HTTP game API's bodies, queries and answers, defined once: routes validate, serialise
// and document (OpenAPI) with these schemas, and the browser client uses the derived types.

import Type, { type Static } from 'typebox';
import { BOT_LEVELS } from '../../bot-engine/bots/levels.ts';
import { MAX_SEATS } from '../../bot-engine/state.ts';
import { MAX_NAME_LENGTH } from './limits.ts';
import { BotLevel, ClockView, GameStatus, Rules, SeatKind, SeatView, TurnBasedPace } from './game.ts';

const Int = Type.Integer();

export const GameId = Type.String({ minLength: 1, maxLength: 64 });
export const IdParams = Type.Object({ id: GameId });

// ---- requests ----

export const RulesRequest = Type.Object(
  {
    tinyCity: Type.Optional(Type.Boolean({ default: false })),
    farmers: Type.Optional(Type.Enum(['1st', '2nd', '3rd'], { default: '3rd' })),
    river: Type.Optional(Type.Boolean({ default: false })),
    innsCathedrals: Type.Optional(Type.Boolean({ default: false, description: 'also allows a 6th seat' })),
    abbot: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const SeatRequest = Type.Object(
  {
    kind: SeatKind,
    level: Type.Optional(BotLevel),
    player: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_NAME_LENGTH * 2,
        description:
          'a person seat kept for the player of this name (a challenge): only they may take it, and it is in their games (GET /api/me/games) at once; an unknown name is `404 unknown_player`',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ClockRequest = Type.Object(
  {
    turnSeconds: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 3600 }), Type.Null()])),
    graceSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
  },
  {
    additionalProperties: false,
    description: 'turn clock: seconds per turn (null: none; default none for one person against bots, 120 with more people) and seconds a person may stay away before a stand-in bot plays for them',
  },
);

export const CreateGameBody = Type.Object(
  {
    seats: Type.Array(SeatRequest, { minItems: 2, maxItems: MAX_SEATS }),
    rules: Type.Optional(RulesRequest),
    clock: Type.Optional(ClockRequest),
    standIn: Type.Optional(Type.Enum(BOT_LEVELS, { description: 'level of the bot that plays for a timed-out or absent person (default heuristic)' })),
    hints: Type.Optional(Type.Boolean({ description: 'let the person ask for the strongest move (default false); only for one person against bots' })),
    listed: Type.Optional(Type.Boolean({ description: "list the game's open seats in GET /api/games for anyone to take (default false: only people with the link can join)" })),
    rated: Type.Optional(Type.Boolean({ description: 'the result moves ratings (default false): every person seat is taken by a player (a session), bots are rated by level; no hints' })),
    pace: Type.Optional(
      Type.Union([Type.Object({ kind: Type.Literal('live') }, { additionalProperties: false }), TurnBasedPace], {
        description:
          'live (the default: a turn clock of seconds) or turn-based: each person has `moveDays` days (1, 2, 3, 5 or 7) per move, then the stand-in bot plays it; bots move at once (docs/RULES.md, Pace)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const JoinBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: MAX_NAME_LENGTH * 2,
      description: `1 to ${MAX_NAME_LENGTH} characters under the players' name rule; ignored when signed in (the seat takes the player's name)`,
    }),
    seat: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SEATS - 1 })),
  },
  { additionalProperties: false },
);

export const RematchBody = Type.Object(
  { token: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'the seat token of the finished game; without it, the signed-in player’s seat' })) },
  { additionalProperties: false },
);

export const OpenGamesQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }) }, { additionalProperties: false });

export const FinishedGamesQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    before: Type.Optional(Type.String({ maxLength: 200 })),
    player: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  },
  { additionalProperties: false },
);

// ---- answers ----

/** A game's public summary: what the lobby lists and GET /api/games/:id answers. */
export const GameSummary = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  status: GameStatus,
  rules: Rules,
  turn: Int,
  seats: Type.Array(SeatView),
  openSeats: Type.Array(Int, { description: 'person seats nobody holds yet' }),
  currentSeat: Type.Union([Int, Type.Null()]),
  tile: Type.Union([Type.String(), Type.Null()]),
  tilesLeft: Int,
  botThinking: Type.Boolean(),
  clock: ClockView,
  rematch: Type.Union([Type.String(), Type.Null()]),
  rated: Type.Optional(Type.Boolean({ description: 'present and true in a rated game' })),
});

export const OpenGames = Type.Object({ games: Type.Array(GameSummary) });

/** A seat just taken: the token is shown only here, and opens the WebSocket hello. */
export const SeatGrant = Type.Object({
  gameId: Type.String(),
  seat: Int,
  token: Type.String(),
  instance: Type.Optional(Type.String({ description: 'in a cluster, the instance that plays the game: `/ws?instance=` reaches it directly' })),
});

export const FinishedPlayer = Type.Object({
  seat: Int,
  name: Type.String(),
  kind: SeatKind,
  level: Type.Optional(BotLevel),
  playerId: Type.Optional(Type.String({ description: 'the signed-in player who held the seat: their profile is /api/players/{playerId}/profile' })),
  score: Int,
});
export type FinishedPlayer = Static<typeof FinishedPlayer>;

export const FinishedGame = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  finishedAt: Type.String(),
  rules: Rules,
  players: Type.Array(FinishedPlayer),
  abandoned: Type.Boolean({ description: 'ended by expiry, scored as it stood, not played to the last tile' }),
});

export const FinishedGames = Type.Object({
  games: Type.Array(FinishedGame),
  next: Type.Union([Type.String(), Type.Null()], { description: 'pass as `before` for the next (older) page' }),
});

/** A tessera-game/1 record (docs/ENGINE.md); the engine's `GameRecord` type is what it holds. */
export const GameRecordReply = Type.Object(
  {
    format: Type.String(),
    players: Type.Array(Type.String()),
    seed: Type.Optional(Type.String()),
    moves: Type.Array(Type.Object({}, { additionalProperties: true })),
    final: Type.Optional(Type.Boolean()),
    abandoned: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

export type SeatRequest = Static<typeof SeatRequest>;
export type RulesRequest = Static<typeof RulesRequest>;
export type CreateGameBody = Static<typeof CreateGameBody>;
export type JoinBody = Static<typeof JoinBody>;
export type RematchBody = Static<typeof RematchBody>;
export type OpenGamesQuery = Static<typeof OpenGamesQuery>;
export type FinishedGamesQuery = Static<typeof FinishedGamesQuery>;
export type GameSummary = Static<typeof GameSummary>;
export type OpenGames = Static<typeof OpenGames>;
export type SeatGrant = Static<typeof SeatGrant>;
export type FinishedGame = Static<typeof FinishedGame>;
export type FinishedGames = Static<typeof FinishedGames>;
export type IdParams = Static<typeof IdParams>;
