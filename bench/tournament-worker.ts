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
}

export interface PairResult {
  seed: string;
  /** Per game: A's seat, every seat's score, A's and B's move times (ms). */
  games: { seatA: number; scores: number[]; msA: number[]; msB: number[]; cpuA: number[]; cpuB: number[]; stoppedMoves: number }[];
}

/** Seats for game g of a pair: A takes seat 0 in the first game and the last seat in the second;
 * with more than two players the other seats are filled by B. */
function seatsFor(task: PairTask, g: number): { seats: BotLevel[]; seatA: number } {
  const seatA = g === 0 ? 0 : task.players - 1;
  const seats: BotLevel[] = [];
  for (let p = 0; p < task.players; p++) seats.push(p === seatA ? task.a : task.b);
  return { seats, seatA };
}

export default function playPair(task: PairTask): PairResult {
  const games: PairResult['games'] = [];
  for (let g = 0; g < 2; g++) {
    const { seats, seatA } = seatsFor(task, g);
    const r: MatchResult = playMatch({ seats, seed: task.seed, rules: task.rules });
    const msB: number[] = [];
    const cpuB: number[] = [];
    for (let p = 0; p < seats.length; p++) {
      if (p === seatA) continue;
      msB.push(...r.moveMs[p]);
      cpuB.push(...r.moveCpuMs[p]);
    }
    games.push({ seatA, scores: r.scores, msA: r.moveMs[seatA], msB, cpuA: r.moveCpuMs[seatA], cpuB, stoppedMoves: r.stoppedMoves });
  }
  return { seed: task.seed, games };
}
