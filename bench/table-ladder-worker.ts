// Piscina worker for the table ladder: one task = one set of games on one tile order, every
// level in every seat (bench/table-ladder.ts). Synchronous, like the server's search worker.

import type { BotLevel } from '../bot-engine/bots/index.ts';
import type { Rules } from '../bot-engine/rules.ts';
import { playMatch } from './match.ts';

export interface SetTask {
  /** One level per seat, in the table's first seating order. */
  levels: BotLevel[];
  seed: string;
  rules?: Partial<Rules>;
}

export interface SetResult {
  seed: string;
  /** Per game: the level in each seat, each seat's score, and each seat's thread-CPU ms per move. */
  games: { seats: BotLevel[]; scores: number[]; cpuMs: number[][] }[];
}

/** The seatings of a set: the levels rotated through every seat, in their order and reversed,
 * so each level plays every seat and sits both before and after each other level. */
export function seatings(levels: readonly BotLevel[]): BotLevel[][] {
  const n = levels.length;
  const reversed = [...levels].reverse();
  const out: BotLevel[][] = [];
  for (const order of [levels, reversed]) for (let r = 0; r < n; r++) out.push(Array.from({ length: n }, (_, p) => order[(p + r) % n]));
  return out;
}

export default function playSet(task: SetTask): SetResult {
  const games = seatings(task.levels).map((seats) => {
    const r = playMatch({ seats, seed: task.seed, rules: task.rules });
    return { seats, scores: r.scores, cpuMs: r.moveCpuMs.map((ms) => ms.map((x) => Math.round(x * 10) / 10)) };
  });
  return { seed: task.seed, games };
}
