// Piscina worker for the tournament: one task = one seat-swapped pair of games on one bag seed.
// Synchronous, like the server's search worker.

import type { BotLevel } from '../bot-engine/bots/index.ts';
import type { Rules } from '../bot-engine/rules.ts';
import { type MatchResult, playMatch } from './match.ts';

export interface PairTask {
  a: BotLevel;
  b: BotLevel;
  seed: string;
  players: number;
  rules?: Partial<Rules>;
  /** Mixed tables: A takes every other seat (the even ones in the first game, the odd ones in
   * the second), B the rest; otherwise A takes one seat. */
  mixed?: boolean;
}

export interface PairResult {
  seed: string;
  /** Per game: A's seat (the first, and all of them at a mixed table), every seat's score, A's
   * and B's move times (ms). */
  games: { seatA: number; seatsA?: number[]; scores: number[]; msA: number[]; msB: number[]; cpuA: number[]; cpuB: number[]; stoppedMoves: number }[];
}

/** Seats for game g of a pair: A takes seat 0 in the first game and the last seat in the second,
 * B the others; at a mixed table A takes the even seats, then the odd ones, so over the pair every
 * seat is played once by each level on the same tile order. */
function seatsFor(task: PairTask, g: number): { seats: BotLevel[]; seatsA: number[] } {
  const isA = (p: number) => (task.mixed ? p % 2 === g : p === (g === 0 ? 0 : task.players - 1));
  const seats: BotLevel[] = [];
  for (let p = 0; p < task.players; p++) seats.push(isA(p) ? task.a : task.b);
  return { seats, seatsA: seats.flatMap((_, p) => (isA(p) ? [p] : [])) };
}

export default function playPair(task: PairTask): PairResult {
  const games: PairResult['games'] = [];
  for (let g = 0; g < 2; g++) {
    const { seats, seatsA } = seatsFor(task, g);
    const r: MatchResult = playMatch({ seats, seed: task.seed, rules: task.rules });
    const times = { msA: [] as number[], msB: [] as number[], cpuA: [] as number[], cpuB: [] as number[] };
    for (let p = 0; p < seats.length; p++) {
      const a = seatsA.includes(p);
      (a ? times.msA : times.msB).push(...r.moveMs[p]);
      (a ? times.cpuA : times.cpuB).push(...r.moveCpuMs[p]);
    }
    games.push({ seatA: seatsA[0], ...(task.mixed ? { seatsA } : {}), scores: r.scores, ...times, stoppedMoves: r.stoppedMoves });
  }
  return { seed: task.seed, games };
}
