// The table's rules as pure functions of their inputs (a game's setup, its state, its turn, who
// sits where): whose turn it is, which move is stale, which seat a bot plays and at what level
// and seed, and what a move makes of the game (the next state, its record
// entries, its live frame). No store, no timers, no room: Room (room.ts) runs these between its
// writes and its broadcasts, and they are tested like a reducer (test/table.test.ts).

import { type Move, type MoveOutcome, playMove, tileName } from '../../bot-engine/game.ts';
import type { RecordMove } from '../../bot-engine/record.ts';
import { finalScoring } from '../../bot-engine/rules.ts';
import { fnv1a, mixSeed } from '../../bot-engine/rng.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import type { GameStatus, LastMove, MoveSource, StandInReason } from '../wire/game.ts';
import type { GameEnd, GameSetup } from './store.ts';
import { copyOfState } from './state-stock.ts';

export type MoveErrorCode = 'not_started' | 'game_over' | 'not_your_turn' | 'stale_turn' | 'illegal_move' | 'storage_unavailable' | 'hints_off' | 'hint_busy';
export interface MoveError {
  error: MoveErrorCode;
  message: string;
}

/** Where a game stands: what the turn rules read. */
export interface TableAt {
  setup: GameSetup;
  state: GameState;
  /** Record entries so far (placements and discards): the turn a frame quotes. */
  turn: number;
  /** Every seat is held. */
  seated: boolean;
}

export function tableStatus(state: GameState, seated: boolean): GameStatus {
  if (state.finished) return 'finished';
  return seated ? 'playing' : 'waiting';
}

/** Why `seat` may not act on `turn` now (a person's move or hint), or null. */
export function turnProblem(table: TableAt, seat: number, turn: number): MoveError | null {
  const status = tableStatus(table.state, table.seated);
  if (status === 'finished') return { error: 'game_over', message: 'the game is over' };
  if (status === 'waiting') return { error: 'not_started', message: 'the game starts when every seat is taken' };
  // A move on an old view is stale whoever plays now: a repeated click never plays twice.
  if (turn !== table.turn) return { error: 'stale_turn', message: `turn is ${table.turn}, the frame quoted ${turn}` };
  const current = table.state.currentPlayer;
  if (table.setup.seats[seat].kind !== 'person' || seat !== current) return { error: 'not_your_turn', message: `it is seat ${current}'s turn` };
  return null;
}

/** The level a bot plays `seat` at, or null when a person plays it now. In a live game a
 * stand-in plays only for the people still here: when everyone has left, the game waits (and may
 * expire); a turn-based game is played with nobody connected. */
export function botLevel(setup: GameSetup, seat: number, standIn: StandInReason | null, peoplePresent: boolean): BotLevel | null {
  const s = setup.seats[seat];
  if (s.kind === 'bot') return s.level ?? null;
  return standIn === null || (!peoplePresent && !setup.pace) ? null : setup.standIn;
}

/** A bot's search seed: the same game, turn and seat always search alike. */
export function botSeed(setup: GameSetup, turn: number, seat: number): number {
  return mixSeed(fnv1a(setup.seed), turn, seat);
}

/** A hint's search seed (apart from the bots' own). */
export function hintSeed(setup: GameSetup, turn: number, seat: number): number {
  return mixSeed(fnv1a(setup.seed), turn, seat, 0x4917);
}

export function endOf(setup: GameSetup, state: GameState, abandoned: boolean): GameEnd {
  return { abandoned, scores: setup.seats.map((_, p) => state.score(p)) };
}

/** How a bot's move was found, for the live frame. */
export interface BotPlay {
  source: MoveSource;
  level: BotLevel;
  elapsedMs: number;
}

/** A move accepted by the rules: what to store, and what the game and its watchers become once
 * it is stored. */
export interface Applied {
  next: GameState;
  recorded: RecordMove[];
  /** Set when the move ended the game. */
  end: GameEnd | null;
  last: LastMove;
}

/** `seat`'s move on `state` (at `turn`), played on a copy: `state` is never touched. */
export function applyMove(setup: GameSetup, state: GameState, turn: number, seat: number, move: Move, bot?: BotPlay): Applied | MoveError {
  const next = copyOfState(state);
  const outcome = playMove(next, move);
  if ('error' in outcome) return { error: 'illegal_move', message: outcome.error };
  return appliedOf(setup, state, next, outcome, turn, seat, bot);
}

/** A move already played (`outcome`) on a private copy `next` of `state`: a bot's, checked where
 * it was found. */
export function appliedOf(setup: GameSetup, state: GameState, next: GameState, outcome: MoveOutcome, turn: number, seat: number, bot?: BotPlay): Applied {
  const tile = tileName(state.currentTile);
  const recorded: RecordMove[] = [{ tile, ...outcome.move }, ...outcome.discarded.map((d) => ({ discard: d }))];
  const end = outcome.finished ? endOf(setup, next, false) : null;
  const last: LastMove = { turn, seat, tile, move: outcome.move, events: outcome.events, discarded: outcome.discarded };
  if (bot) last.bot = { source: bot.source, level: bot.level, elapsedMs: Math.round(bot.elapsedMs * 1000) / 1000, ...(setup.seats[seat].kind === 'person' ? { standIn: true } : {}) };
  return { next, recorded, end, last };
}

/** The game ended as it stands (it expired): followers scored as at the end of a game. */
export function abandonAt(setup: GameSetup, state: GameState): { next: GameState; end: GameEnd } {
  const next = copyOfState(state);
  finalScoring(next);
  return { next, end: endOf(setup, next, true) };
}
