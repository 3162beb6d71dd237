// One bot-vs-bot game, in-process: the unit of work of the tournament (and of quick checks).

import { type BotLevel, chooseMove } from '../bot-engine/bots/index.ts';
import { newGame } from '../bot-engine/game.ts';
import type { Rules } from '../bot-engine/rules.ts';
import { bagEmpty, discardUnplaceable, finalScoring, place } from '../bot-engine/rules.ts';
import { fnv1a, mixSeed } from '../bot-engine/rng.ts';
import { GameState } from '../bot-engine/state.ts';
import { hideBag } from '../bot-engine/rules.ts';

export interface MatchTask {
  /** Level of each seat, in seat order (2 to 6 seats). */
  seats: BotLevel[];
  /** Bag seed: seat-swapped pairs share it. */
  seed: string;
  rules?: Partial<Rules>;
}

export interface MatchResult {
  scores: number[];
  /** Per seat: wall milliseconds of each of its moves. */
  moveMs: number[][];
  /** Per seat: thread-CPU milliseconds of each of its moves (less sensitive to a busy machine). */
  moveCpuMs: number[][];
  stoppedMoves: number;
}

export function playMatch(task: MatchTask): MatchResult {
  const s = newGame({ players: task.seats.length, rules: task.rules, seed: task.seed });
  const view = new GameState();
  const base = fnv1a(task.seed);
  const moveMs: number[][] = task.seats.map(() => []);
  const moveCpuMs: number[][] = task.seats.map(() => []);
  let stoppedMoves = 0;
  let turn = 0;
  while (!bagEmpty(s)) {
    const seat = s.currentPlayer;
    hideBag(view.copyFrom(s));
    const t0 = performance.now();
    const c0 = process.threadCpuUsage();
    const d = chooseMove(view, task.seats[seat], mixSeed(base, turn, seat));
    moveMs[seat].push(performance.now() - t0);
    const c = process.threadCpuUsage(c0);
    moveCpuMs[seat].push((c.user + c.system) / 1000);
    if (d.stopped) stoppedMoves++;
    // The view and the real state share board and frontier: the decision applies to both.
    place(s, d.fi, d.r, d.spot);
    discardUnplaceable(s);
    turn++;
  }
  finalScoring(s);
  return { scores: Array.from({ length: task.seats.length }, (_, p) => s.score(p)), moveMs, moveCpuMs, stoppedMoves };
}
