// The client's copy of the server's wire shapes (docs/PROTOCOL.md, WebSocket protocol v1 and the
// HTTP API). The client talks only this protocol; fields the server may add later (turn clock,
// bot takeover, spectators) are optional here and shown when present.

export const PROTOCOL_VERSION = 1;

export type BotLevel = 'random' | 'greedy' | 'heuristic' | 'medium' | 'hard' | 'expert';
export const BOT_LEVELS: BotLevel[] = ['random', 'greedy', 'heuristic', 'medium', 'hard', 'expert'];
export type GameStatus = 'waiting' | 'playing' | 'finished';

export interface Rules {
  tinyCity: boolean;
  farmers: '1st' | '2nd' | '3rd';
}

export interface Points {
  city: number;
  road: number;
  monastery: number;
  farm: number;
}

export interface SeatView {
  seat: number;
  name: string | null;
  kind: 'person' | 'bot';
  level?: BotLevel;
  connected: boolean;
  score: number;
  followers: number;
  points: Points;
  /** Issue D: set while a bot plays a person's seat (turn clock ran out / away). */
  botPlaying?: boolean | string | null;
  controller?: string | null;
  /** Issue D: a bot stands in for this person (true, or the reason: "away", "clock"…). */
  standIn?: boolean | string | null;
}

export interface Placement {
  x: number;
  y: number;
  rotation: number;
  meeples: string[];
}

export interface BoardTile {
  tile: string;
  x: number;
  y: number;
  rotation: number;
}

export interface Follower {
  player: number;
  x: number;
  y: number;
  spot: string;
}

/** Optional turn clock (issue D); any of these shapes is shown when present. */
export interface TurnClock {
  /** Milliseconds left for the current seat. */
  remainingMs?: number;
  /** Epoch ms when the current seat's time runs out. */
  deadline?: number;
  /** Total per-turn budget, ms. */
  turnMs?: number;
}

export interface GameView {
  gameId: string;
  status: GameStatus;
  rules: Rules;
  turn: number;
  you: number | null;
  seats: SeatView[];
  currentSeat: number | null;
  tile: string | null;
  tilesLeft: number;
  board: BoardTile[];
  followers: Follower[];
  legal: Placement[] | null;
  botThinking: boolean;
  clock?: TurnClock | null;
  spectators?: number;
  /** Issue D: the id of this game's rematch, once someone asked for one. */
  rematch?: string | null;
}

export interface Move {
  x: number;
  y: number;
  rotation: number;
  meeple: string | null;
}

export interface ScoreEvent {
  players: number[];
  kind: 'city' | 'road' | 'monastery' | 'farm';
  points: number;
  phase: 'play' | 'final';
  tiles: number;
}

export interface LastMove {
  turn: number;
  seat: number;
  tile: string;
  move: Move;
  events: ScoreEvent[];
  discarded: string[];
  bot?: { source: string; level: string; elapsedMs: number; standIn?: boolean };
}

export type ErrorCode =
  | 'bad_json'
  | 'bad_frame'
  | 'too_large'
  | 'rate_limited'
  | 'unsupported_version'
  | 'not_joined'
  | 'already_joined'
  | 'unknown_game'
  | 'bad_token'
  | 'not_seated'
  | 'not_started'
  | 'game_over'
  | 'not_your_turn'
  | 'stale_turn'
  | 'illegal_move'
  | 'internal';

export type ServerFrame =
  | { type: 'welcome'; v: number; gameId: string; seat: number | null }
  | { type: 'state'; view: GameView; last: LastMove | null }
  | { type: 'error'; code: ErrorCode; message: string; ref?: string | number }
  | { type: 'pong'; ref?: string | number }
  | { type: 'bye'; reason: string };

export interface GameSummary {
  id: string;
  createdAt?: string;
  status: GameStatus;
  rules?: Rules;
  turn?: number;
  seats: SeatView[];
  openSeats?: number[];
  currentSeat?: number | null;
  tile?: string | null;
  tilesLeft?: number;
  botThinking?: boolean;
}
