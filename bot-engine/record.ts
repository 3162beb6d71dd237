// Game records (`tessera-game/1`): a game is its setup plus its ordered moves, and replaying
// a record rebuilds the exact state anywhere.

import { ROT_SPOT_NAMES, TYPE_NAMES, tileIndex } from './tiles.ts';
import { GameState, H_BAGLEN, H_BAGPOS, H_LOG, MAX_SEATS } from './state.ts';
import { type Rules, type ScoreEvent, canPlaceAnywhere, bagEmpty, dealtBag, discard, drawType, finalScoring, initState, maxPlayers, PFIGURE_RETURNED_ABBOT, place, rulesOf } from './rules.ts';
import { type FigureName, normalizeRules, resolveMove, type Move } from './game.ts';
import { FIGURE_FOLLOWER, FIGURE_NAMES } from './expansions/options.ts';

export const RECORD_FORMAT = 'tessera-game/1';

export type RecordMove = ({ tile: string } & Move) | { discard: string };

export interface GameRecord {
  format: typeof RECORD_FORMAT;
  rules?: Partial<Rules>;
  players: string[];
  seed?: string;
  moves: RecordMove[];
  /** The game is over: final scoring runs after the last move. */
  final?: boolean;
  /** Over before the bag was empty (the server ended an abandoned game); implies `final`. */
  abandoned?: boolean;
  /** Played turn-based, with days per move (absent: live); it changes nothing in the replay. */
  pace?: { kind: 'turnBased'; moveDays: number };
}

export interface NamedEvent extends Omit<ScoreEvent, 'players'> {
  players: string[];
  /** Index in `moves` of the move that scored it; absent for final scoring. */
  moveIndex?: number;
}

export interface ReplayResult {
  state: GameState;
  scores: Record<string, number>;
  events: NamedEvent[];
  /** Per record move: the seat that made it and what it scored (seats as numbers). */
  steps: { seat: number; events: ScoreEvent[] }[];
  /** Final scoring, when the record is final. */
  finalEvents: ScoreEvent[];
}

export class RecordError extends Error {
  readonly moveIndex: number | undefined;
  constructor(message: string, moveIndex?: number) {
    super(message);
    this.name = 'RecordError';
    this.moveIndex = moveIndex;
  }
}

function checkHeader(record: unknown): asserts record is GameRecord {
  if (!record || typeof record !== 'object' || Array.isArray(record)) throw new RecordError('a record is a JSON object');
  const r = record as Partial<GameRecord>;
  if (r.format !== RECORD_FORMAT) throw new RecordError(`format must be "${RECORD_FORMAT}"`);
  if (!Array.isArray(r.players) || r.players.length < 1 || r.players.length > MAX_SEATS) throw new RecordError(`players must list 1 to ${MAX_SEATS} names`);
  if (r.players.some((p) => typeof p !== 'string' || p.length === 0)) throw new RecordError('every player name must be a non-empty string');
  if (new Set(r.players).size !== r.players.length) throw new RecordError('player names must be distinct');
  if (r.seed !== undefined && typeof r.seed !== 'string') throw new RecordError('seed must be a string');
  if (!Array.isArray(r.moves)) throw new RecordError('moves must be an array');
  if (r.final !== undefined && typeof r.final !== 'boolean') throw new RecordError('final must be true or false');
  if (r.abandoned !== undefined && (r.abandoned !== true || r.final !== true)) throw new RecordError('abandoned, when given, must be true, with final true');
  if (r.rules !== undefined && (typeof r.rules !== 'object' || r.rules === null)) throw new RecordError('rules must be an object');
}

function tileOf(name: unknown, index: number): number {
  const t = typeof name === 'string' ? tileIndex(name) : -1;
  if (t < 0) throw new RecordError(`unknown tile ${JSON.stringify(name)}`, index);
  return t;
}

/** Applies one record move to the state; throws RecordError if it is illegal there. */
function applyRecordMove(s: GameState, move: RecordMove, index: number, events?: ScoreEvent[]): void {
  if (!move || typeof move !== 'object') throw new RecordError('a move is an object', index);
  if (bagEmpty(s) || s.finished) throw new RecordError('the bag is empty: no move can follow', index);
  const isDiscard = 'discard' in move;
  const type = tileOf(isDiscard ? move.discard : move.tile, index);
  if (!drawType(s, type)) {
    const later = s.bag.subarray(s.h[H_BAGPOS], s.h[H_BAGLEN]).includes(type);
    throw new RecordError(
      later ? `tile ${TYPE_NAMES[type]} may not be drawn yet: the river tiles come first, then the lake RB, then the land tiles` : `no ${TYPE_NAMES[type]} tile is left in the bag`,
      index,
    );
  }
  if (isDiscard) {
    if (canPlaceAnywhere(s, type)) throw new RecordError(`tile ${TYPE_NAMES[type]} fits on the board, so it may not be discarded`, index);
    discard(s);
    return;
  }
  if (!canPlaceAnywhere(s, type)) throw new RecordError(`tile ${TYPE_NAMES[type]} fits nowhere: the record must discard it`, index);
  const resolved = resolveMove(s, move);
  if ('error' in resolved) throw new RecordError(resolved.error, index);
  place(s, resolved.fi, resolved.r, resolved.spot, events);
}

/** One step of a replay: the setup (`start`), a record move, or the final scoring. */
export type ReplayStep = { state: GameState; events: ScoreEvent[] } & ({ kind: 'start' } | { kind: 'move'; moveIndex: number; move: RecordMove; seat: number } | { kind: 'final' });

/**
 * Replays a record step by step, validating every move (throws RecordError at the first bad one).
 * Every step yields the same live state, advanced: read what you need before the next step.
 */
export function* replaySteps(record: unknown): Generator<ReplayStep, void, undefined> {
  checkHeader(record);
  let rules: Rules;
  try {
    rules = normalizeRules(record.rules);
  } catch (e) {
    throw new RecordError((e as Error).message);
  }
  const seats = maxPlayers(rules);
  if (record.players.length > seats) throw new RecordError(`players must list 1 to ${seats} names${rules.innsCathedrals ? '' : ' (6 with rules.innsCathedrals)'}`);
  const state = initState(new GameState(), record.players.length, rules, dealtBag(rules, record.seed));
  yield { kind: 'start', state, events: [] };
  for (const [moveIndex, move] of record.moves.entries()) {
    const seat = state.currentPlayer;
    const events: ScoreEvent[] = [];
    applyRecordMove(state, move, moveIndex, events);
    yield { kind: 'move', moveIndex, move, seat, state, events };
  }
  if (record.final) {
    const events: ScoreEvent[] = [];
    finalScoring(state, events);
    yield { kind: 'final', state, events };
  }
}

/** Rebuilds a game from its record, validating every move. Throws RecordError. */
export function replayRecord(record: unknown): ReplayResult {
  let state: GameState | null = null;
  const steps: ReplayResult['steps'] = [];
  const finalEvents: ScoreEvent[] = [];
  const events: NamedEvent[] = [];
  for (const step of replaySteps(record)) {
    state = step.state;
    if (step.kind === 'move') steps.push({ seat: step.seat, events: step.events });
    if (step.kind === 'final') finalEvents.push(...step.events);
    const names = (record as GameRecord).players; // checked by the first step
    for (const e of step.events) events.push({ ...e, players: e.players.map((p) => names[p]), ...(step.kind === 'move' ? { moveIndex: step.moveIndex } : {}) });
  }
  const scores = Object.fromEntries((record as GameRecord).players.map((name, i) => [name, state!.score(i)]));
  return { state: state!, scores, events, steps, finalEvents };
}

/** The record of any state, finished or not; it replays to the same state. */
export function toRecord(s: GameState, players: string[], seed?: string): GameRecord {
  const moves: RecordMove[] = [];
  for (let i = 0; i < s.h[H_LOG]; i++) {
    const entry = s.log[i];
    if (entry < 0) {
      moves.push({ discard: TYPE_NAMES[-entry - 1] });
      continue;
    }
    const tr = s.ptype[entry] * 4 + s.prot[entry];
    const spot = s.pspot[entry];
    const move: RecordMove = { tile: TYPE_NAMES[s.ptype[entry]], x: s.px[entry], y: s.py[entry], rotation: s.prot[entry] * 90, meeple: spot >= 0 ? ROT_SPOT_NAMES[tr][spot] : null };
    const figure = spot >= 0 ? RECORD_FIGURES[s.pfigure[entry]] : undefined;
    if (figure) move.figure = figure;
    if (s.pfigure[entry] === PFIGURE_RETURNED_ABBOT) move.returnAbbot = true;
    moves.push(move);
  }
  return { format: RECORD_FORMAT, rules: rulesOf(s), players: [...players], ...(seed === undefined ? {} : { seed }), moves, final: s.finished };
}

/** A record names every figure but the follower (the figure when none is named). */
const RECORD_FIGURES: readonly (FigureName | undefined)[] = FIGURE_NAMES.map((name, f) => (f === FIGURE_FOLLOWER ? undefined : name));
