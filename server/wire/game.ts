// What a game looks like on the wire, defined once: these schemas serialise and document the HTTP
// answers (OpenAPI), and the TypeScript types of the server and the browser client are derived
// from them. The engine keeps its own types; view.ts is where the compiler checks they fit.

import Type, { type Static } from 'typebox';
import { BOT_LEVELS } from '../../bot-engine/bots/levels.ts';

const Int = Type.Integer();

export const BotLevel = Type.Enum(BOT_LEVELS);
export const GameStatus = Type.Enum(['waiting', 'playing', 'finished']);
export const SeatKind = Type.Enum(['person', 'bot']);
/** Why a bot plays a person's seat for now: their turn clock ran out, or they stayed away. */
export const StandInReason = Type.Enum(['clock', 'away', 'dropped']);
/** How a bot move was chosen: its search, a degraded search, the cheap retry, or the main thread. */
export const MoveSource = Type.Enum(['search', 'degraded', 'retry', 'fallback']);

export const Rules = Type.Object({
  tinyCity: Type.Boolean({ description: 'a completed two-tile city scores 2 instead of 4' }),
  farmers: Type.Enum(['1st', '2nd', '3rd'], { description: 'farm scoring edition' }),
  river: Type.Optional(Type.Boolean({ description: 'the River: its 12 tiles are played first (present only when on)' })),
  innsCathedrals: Type.Optional(Type.Boolean({ description: 'Inns & Cathedrals: 18 more tiles, the large follower, up to 6 players (present only when on)' })),
  abbot: Type.Optional(Type.Boolean({ description: 'the Abbot: gardens on some tiles and one abbot a player (present only when on)' })),
});

/** The figures a player may place: today's follower, and the expansions' large follower and abbot. */
export const Figure = Type.Enum(['follower', 'large', 'abbot']);

export const Points = Type.Object({ city: Int, road: Int, farm: Int, monastery: Int }, { description: 'score by the kind of feature that paid it' });

export const Move = Type.Object({
  x: Int,
  y: Int,
  rotation: Type.Integer({ description: 'degrees clockwise: 0, 90, 180 or 270' }),
  meeple: Type.Union([Type.String(), Type.Null()], { description: 'a follower spot such as "city:N", or null' }),
  figure: Type.Optional(Figure),
  returnAbbot: Type.Optional(Type.Literal(true, { description: 'the player takes their abbot back instead of placing a figure (the Abbot)' })),
});

export const ScoreEvent = Type.Object({
  players: Type.Array(Int, { description: 'seats that scored (ties score in full)' }),
  kind: Type.Enum(['city', 'road', 'monastery', 'farm']),
  garden: Type.Optional(Type.Literal(true, { description: 'a garden (the Abbot), scored as a monastery is' })),
  inn: Type.Optional(Type.Literal(true, { description: 'the road had an inn (Inns & Cathedrals): 2 a tile completed, 0 unfinished at the end; then sent at 0 points too' })),
  cathedral: Type.Optional(Type.Literal(true, { description: 'the city had a cathedral (Inns & Cathedrals): 3 a tile and pennant completed, 0 unfinished at the end' })),
  points: Int,
  phase: Type.Enum(['play', 'final']),
  tiles: Type.Integer({ description: 'distinct tiles of the feature (farms: the completed cities it supplies)' }),
});

export const LastMove = Type.Object({
  turn: Type.Integer({ description: 'record index of this placement' }),
  seat: Int,
  tile: Type.String(),
  move: Move,
  events: Type.Array(ScoreEvent),
  discarded: Type.Array(Type.String(), { description: 'tiles drawn after this move that fit nowhere' }),
  bot: Type.Optional(Type.Object({ source: MoveSource, level: Type.String(), elapsedMs: Type.Number(), standIn: Type.Optional(Type.Boolean()) })),
});

export const SeatView = Type.Object({
  seat: Int,
  name: Type.Union([Type.String(), Type.Null()]),
  kind: SeatKind,
  level: Type.Optional(BotLevel),
  connected: Type.Boolean(),
  standIn: Type.Union([StandInReason, Type.Null()], { description: "why a bot plays this person's seat for now, or null" }),
  playerId: Type.Optional(Type.String({ description: 'the player holding the seat: a signed-in person (`p_…`) or, in a rated game, a bot level (`bot:<level>`); their rating: GET /api/ratings' })),
  invited: Type.Optional(Type.String({ description: 'an open seat kept for this player (challenged by name): only they may take it' })),
  guest: Type.Optional(Type.Literal(true, { description: 'present and true when a person holds the seat without a player behind it: the name was typed, not signed in' })),
  score: Int,
  followers: Type.Integer({ description: 'followers left in the supply' }),
  large: Type.Optional(Type.Integer({ description: 'large followers left in the supply (Inns & Cathedrals)' })),
  abbots: Type.Optional(Type.Integer({ description: 'abbots left in the supply (the Abbot)' })),
  points: Points,
  hints: Type.Optional(Type.Integer({ description: 'hints this seat asked for (only in games with hints)' })),
});

export const Placement = Type.Object({
  x: Int,
  y: Int,
  rotation: Int,
  meeples: Type.Array(Type.String(), { description: 'spots open to a follower' }),
  large: Type.Optional(Type.Array(Type.String(), { description: 'spots open to the large follower (Inns & Cathedrals)' })),
  abbot: Type.Optional(Type.Array(Type.String(), { description: 'spots open to the abbot (the Abbot)' })),
  canReturnAbbot: Type.Optional(Type.Boolean({ description: 'the Abbot: this placement may come with taking the abbot back (`returnAbbot`)' })),
});
export const BoardTile = Type.Object({ tile: Type.String(), x: Int, y: Int, rotation: Int });
export const Follower = Type.Object({ player: Int, x: Int, y: Int, spot: Type.String(), figure: Type.Optional(Type.Enum(['large', 'abbot'], { description: 'absent for a follower' })) });

/** Days a person has per move in a turn-based game. */
export const MoveDays = Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(5), Type.Literal(7)], { description: 'days a person has for each move' });

export const TurnBasedPace = Type.Object({ kind: Type.Literal('turnBased'), moveDays: MoveDays }, { additionalProperties: false });

export const ClockView = Type.Object({
  pace: Type.Optional(TurnBasedPace),
  turnSeconds: Type.Union([Type.Integer(), Type.Null()], { description: 'seconds per turn; null: no clock' }),
  deadline: Type.Union([Type.Number(), Type.Null()], { description: "epoch ms when the current person's time runs out, or null" }),
});

export const GameView = Type.Object({
  gameId: Type.String(),
  status: GameStatus,
  rules: Rules,
  turn: Type.Integer({ description: 'moves in the record so far; a move frame must quote it' }),
  you: Type.Union([Int, Type.Null()], { description: 'the seat this connection plays, or null' }),
  seats: Type.Array(SeatView),
  currentSeat: Type.Union([Int, Type.Null()]),
  tile: Type.Union([Type.String(), Type.Null()]),
  tilesLeft: Int,
  board: Type.Array(BoardTile),
  followers: Type.Array(Follower),
  legal: Type.Union([Type.Array(Placement), Type.Null()], { description: 'legal placements of `tile`, only to the seat that must place it' }),
  botThinking: Type.Boolean(),
  clock: ClockView,
  rematch: Type.Union([Type.String(), Type.Null()], { description: 'id of the rematch started from this finished game' }),
  abandoned: Type.Boolean({ description: 'the game ended because it expired (docs/OPERATIONS.md), scored as it stood; status is then `finished`' }),
  hints: Type.Boolean({ description: 'the person may ask for the strongest move (a `hint` frame): games of one person against bots, created with `hints: true`' }),
  rated: Type.Optional(Type.Boolean({ description: 'present and true in a rated game: the result moves ratings' })),
});

export type BotLevel = Static<typeof BotLevel>;
export type GameStatus = Static<typeof GameStatus>;
export type SeatKind = Static<typeof SeatKind>;
export type StandInReason = Static<typeof StandInReason>;
export type MoveSource = Static<typeof MoveSource>;
export type Move = Static<typeof Move>;
export type LastMove = Static<typeof LastMove>;
export type SeatView = Static<typeof SeatView>;
export type Placement = Static<typeof Placement>;
export type ClockView = Static<typeof ClockView>;
export type GameView = Static<typeof GameView>;
export type Points = Static<typeof Points>;
