// A finished game's analysis as the store keeps it, and the one place it is mapped to and from
// the wire (server/wire/analysis.ts). The stored form holds only what the wire answer is built
// from (the verdict per position, the seat names, the engine that judged), so a change to the
// answer (a field added, a summary counted differently) needs no storage migration. Analyses
// stored before this form existed are the wire answer of their day: they still load.

import type { Move } from '../../bot-engine/game.ts';
import { DamagedGameError } from '../games/store.ts';
import type { AnalysedMove, GameAnalysis, SeatAnalysis } from '../wire/analysis.ts';

/** A move that loses this many expected points or more counts as a mistake. */
export const MISTAKE_POINTS = 3;

/** One placement's verdict. */
export interface StoredPosition {
  /** Index of the placement in the record's moves. */
  moveIndex: number;
  seat: number;
  tile: string;
  played: Move;
  best: Move;
  playedValue: number | null;
  bestValue: number | null;
  loss: number;
}

export interface StoredAnalysis {
  v: 1;
  createdAt: string;
  engine: { level: 'expert'; samples: number; version: number };
  /** The seat holders' names when the game was analysed, by seat. */
  names: string[];
  positions: StoredPosition[];
}

/** An analysis stored as the wire answer of its day, in the current stored form. */
function fromLegacy(analysis: GameAnalysis): StoredAnalysis {
  return {
    v: 1,
    createdAt: analysis.createdAt,
    engine: { level: analysis.engine.level, samples: analysis.engine.samples, version: analysis.engine.version },
    names: analysis.seats.map((s) => s.name),
    positions: analysis.moves.map(({ moveIndex, seat, tile, played, best, playedValue, bestValue, loss }) => ({ moveIndex, seat, tile, played, best, playedValue, bestValue, loss })),
  };
}

/** The wire answer for a stored analysis of either form; DamagedGameError when it is neither. */
export function fromStored(gameId: string, stored: unknown): GameAnalysis {
  const current = upgrade(stored);
  if (!current) throw new DamagedGameError(gameId, 'its stored analysis is in no known form');
  return toWire(gameId, current);
}

/** The wire answer built from a finished analysis (its seat summaries counted here). */
export function toWire(gameId: string, stored: StoredAnalysis): GameAnalysis {
  const moves: AnalysedMove[] = stored.positions.map((p) => ({ ...p }));
  return {
    gameId,
    status: 'done',
    engine: { ...stored.engine },
    seats: stored.names.map((name, seat) => seatSummary(seat, name, moves)),
    moves,
    createdAt: stored.createdAt,
  };
}

/** The current stored form of a stored analysis, or undefined when it is in no known form (profiles read it too). */
export function upgrade(stored: unknown): StoredAnalysis | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const body = stored as Record<string, unknown>;
  if (body.v === 1 && Array.isArray(body.positions) && Array.isArray(body.names)) return body as unknown as StoredAnalysis;
  // The wire answer as stored before the stored form existed.
  if (!('v' in body) && body.status === 'done' && Array.isArray(body.moves) && Array.isArray(body.seats)) return fromLegacy(body as unknown as GameAnalysis);
  return undefined;
}

function seatSummary(seat: number, name: string, moves: AnalysedMove[]): SeatAnalysis {
  const own = moves.filter((m) => m.seat === seat);
  const lost = own.reduce((sum, m) => sum + m.loss, 0);
  return {
    seat,
    name,
    moves: own.length,
    pointsLost: Math.round(lost * 100) / 100,
    mistakes: own.filter((m) => m.loss >= MISTAKE_POINTS).length,
    bestMoves: own.filter((m) => m.loss === 0).length,
  };
}
