// What one seat may see of a game: the board, scores, the tile being placed, and, for the seat
// that must place it, the legal placements. Never the bag order.

import { type BoardTile, type Follower, type Move, type Points, boardTiles, followersOnBoard, legalPlacements, pointsByKind, tileName } from '../../bot-engine/game.ts';
import type { Rules } from '../../bot-engine/rules.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { ScoreEvent } from '../../bot-engine/rules.ts';

export type GameStatus = 'waiting' | 'playing' | 'finished';
export type SeatKind = 'person' | 'bot';

/** Why a bot plays a person's seat for now: their turn clock ran out, or they stayed away. */
export type StandInReason = 'clock' | 'away';

/** How a bot move was chosen: its search, a degraded search, the cheap retry, or the main thread. */
export type MoveSource = 'search' | 'degraded' | 'retry' | 'fallback';

export interface LastMove {
  /** Record index of this placement. */
  turn: number;
  seat: number;
  tile: string;
  move: Move;
  /** Scorings, seats as numbers; phase "final" ones come with the last tile. */
  events: ScoreEvent[];
  /** Tiles drawn after this move that fit nowhere. */
  discarded: string[];
  bot?: { source: MoveSource; level: string; elapsedMs: number; standIn?: boolean };
}

export type { Points };

export interface SeatView {
  seat: number;
  name: string | null;
  kind: SeatKind;
  level?: BotLevel;
  connected: boolean;
  /** Why a bot plays this person's seat for now ("clock": their time ran out; "away": gone past
   * the grace period), or null. */
  standIn: StandInReason | null;
  score: number;
  followers: number;
  points: Points;
}

export interface Placement {
  x: number;
  y: number;
  rotation: number;
  meeples: string[];
}

export interface GameView {
  gameId: string;
  status: GameStatus;
  rules: Rules;
  /** Moves in the record so far; a move frame must quote it. */
  turn: number;
  /** The seat this connection plays, null for none. */
  you: number | null;
  seats: SeatView[];
  /** Seat to place the current tile; null unless playing. */
  currentSeat: number | null;
  tile: string | null;
  tilesLeft: number;
  board: BoardTile[];
  followers: Follower[];
  /** Legal placements of `tile`, only to the seat that must place it. */
  legal: Placement[] | null;
  botThinking: boolean;
  /** The turn clock: seconds per turn (null: no clock) and when the current person's time runs out. */
  clock: ClockView;
  /** Id of the rematch started from this finished game, or null. */
  rematch: string | null;
}

export interface ClockView {
  turnSeconds: number | null;
  /** Epoch milliseconds, or null when no person's clock is running. */
  deadline: number | null;
}

export interface SeatInfo {
  name: string | null;
  kind: SeatKind;
  level?: BotLevel;
  connected: boolean;
  standIn: StandInReason | null;
}

export interface ViewInput {
  gameId: string;
  status: GameStatus;
  rules: Rules;
  turn: number;
  state: GameState;
  seats: SeatInfo[];
  botThinking: boolean;
  clock: ClockView;
  rematch: string | null;
}

export function seatView(input: ViewInput, you: number | null): GameView {
  const { state } = input;
  const playing = input.status === 'playing';
  const current = playing ? state.currentPlayer : null;
  const myTurn = you !== null && you === current && input.seats[you].kind === 'person';
  return {
    gameId: input.gameId,
    status: input.status,
    rules: input.rules,
    turn: input.turn,
    you,
    seats: input.seats.map((seat, p) => ({ seat: p, ...seat, score: state.score(p), followers: state.followers(p), points: pointsByKind(state, p) })),
    currentSeat: current,
    tile: state.currentTile >= 0 && !state.finished ? tileName(state.currentTile) : null,
    tilesLeft: state.finished ? 0 : state.tilesLeft,
    board: boardTiles(state),
    followers: followersOnBoard(state),
    legal: myTurn ? legalPlacements(state) : null,
    botThinking: input.botThinking,
    clock: input.clock,
    rematch: input.rematch,
  };
}
