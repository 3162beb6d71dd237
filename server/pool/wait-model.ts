// How long a new bot search would wait for a worker: the searches queued ahead of it and the
// ones running, at their measured run times. Pure, so the scheduler's choice of level and budget
// is testable without threads.

import type { BotLevel } from '../../bot-engine/bots/index.ts';

/**
 * When a task submitted now would start, in ms from now: `busy` holds each busy worker's
 * remaining time, `queued` the expected run of each task ahead, in order; every task ahead takes
 * the worker that frees first. O(workers × queued), both small.
 */
export function predictStartMs(workers: number, busy: readonly number[], queued: readonly number[]): number {
  // Indexed loops and one array: called on every bot move with up to the queue's bound queued.
  const free = new Array<number>(Math.max(1, workers));
  for (let i = 0; i < free.length; i++) free[i] = busy[i] ?? 0;
  for (let q = 0; q < queued.length; q++) {
    let first = 0;
    for (let i = 1; i < free.length; i++) if (free[i] < free[first]) first = i;
    free[first] += queued[q];
  }
  let soonest = free[0];
  for (let i = 1; i < free.length; i++) if (free[i] < soonest) soonest = free[i];
  return soonest;
}

/** A bot search expected to run at most this long (ms: `random`, `greedy`, `heuristic`) starts
 * before longer ones queued ahead of it, so a cheap bot's move does not wait behind other games'
 * deep searches; each of those waits at most this long more per search that passes it. */
export const QUICK_MS = 20;
/** A queued search is passed by quick ones only while it has waited less than this (ms): past
 * it, it is next whatever comes, so a stream of quick searches cannot starve it. */
export const PASS_LIMIT_MS = 1000;

/** Where the next bot search to start is in `queue` (oldest first): the first quick one, if the
 * oldest is not quick and has waited less than PASS_LIMIT_MS; else the oldest. */
export function nextSearch(queue: readonly { expectedMs: number; submittedAt: number }[], now: number): number {
  if (queue.length < 2 || queue[0].expectedMs <= QUICK_MS || now - queue[0].submittedAt >= PASS_LIMIT_MS) return 0;
  const quick = queue.findIndex((t) => t.expectedMs <= QUICK_MS);
  return quick < 0 ? 0 : quick;
}

/** Warm single-thread run times on a 2-core VPS class machine before any is measured (ms). */
const PRIOR_MS: Record<BotLevel | 'analysis', number> = { random: 1, greedy: 3, heuristic: 5, medium: 40, hard: 120, expert: 350, analysis: 400 };
/** Weight of the newest sample in the moving average: about the last 10 runs count. */
const ALPHA = 0.2;

/** Run time per level (and for an analysis position), as an exponential moving average of the
 * searches that ran to their own end (a search cut by its deadline says nothing of its length). */
export class RunTimeModel {
  private readonly mean = new Map<BotLevel | 'analysis', number>();

  record(kind: BotLevel | 'analysis', runMs: number): void {
    const old = this.mean.get(kind);
    this.mean.set(kind, old === undefined ? runMs : old + ALPHA * (runMs - old));
  }

  expectedMs(kind: BotLevel | 'analysis'): number {
    return this.mean.get(kind) ?? PRIOR_MS[kind];
  }
}
