// Long bot runs (the tournament, the table ladder) survive interruption: every finished unit of
// work (a pair of games, a set) is appended to a checkpoint whose first line is the run's key,
// and the same command run again resumes from it. Units are pure functions of their seed, so a
// resumed run gives the result an uninterrupted one would. A finished run keeps its checkpoint
// too: the same command with a larger count plays only the units it adds.

import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import { budgetAt, SEARCH_LEVELS } from '../../bot-engine/bots/rollout.ts';

/** The search parameters each level plays with at a table of `players` (null: not a search),
 * for a checkpoint's key: a run of other bots must not resume from it, and a change to a level's
 * budget at another table size does not stop it. */
export function botParams(levels: readonly BotLevel[], players: number): unknown[] {
  return levels.map((l) => {
    if (!(l in SEARCH_LEVELS)) return null;
    const { byPlayers: _otherTables, ...atTable } = budgetAt(SEARCH_LEVELS[l as keyof typeof SEARCH_LEVELS], players);
    return atTable;
  });
}

export class Checkpoint<T> {
  readonly file: string;
  /** The units an earlier run of the same key recorded, those `keep` accepts. */
  readonly resumed: T[];

  /** Opens `file` for the run `key` (`what` names another run's checkpoint in the refusal;
   * `unit` counts the units resumed); `fresh` discards it first. */
  constructor(file: string, key: string, o: { fresh: boolean; what: string; unit: string; keep: (unit: T) => boolean }) {
    this.file = file;
    if (o.fresh) rmSync(file, { force: true });
    this.resumed = read<T>(file, key, o.what).filter(o.keep);
    if (this.resumed.length === 0) writeFileSync(file, `${key}\n`);
    else process.stderr.write(`resuming from ${file}: ${this.resumed.length} ${o.unit} already played\n`);
  }

  record(unit: T): void {
    appendFileSync(this.file, `${JSON.stringify(unit)}\n`);
  }
}

function read<T>(file: string, key: string, what: string): T[] {
  if (!existsSync(file)) return [];
  const [head, ...lines] = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  if (head !== key) throw new Error(`${file} is the checkpoint of ${what}: pass --fresh to discard it`);
  // A line cut short by a kill mid-write is dropped; its unit is simply played again.
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as T];
    } catch {
      return [];
    }
  });
}

/**
 * Plays units 0 … count − 1 but those `done`, `workers` at a time, each by `play`. Units start as
 * workers free up, so a time bound stops cleanly: no unit starts after `maxMs`, and the ones
 * already running finish and count. Resolves true when the bound cut the run short.
 */
export async function playBounded(o: { count: number; workers: number; maxMs: number; done: ReadonlySet<number>; play: (index: number) => Promise<void> }): Promise<boolean> {
  const started = performance.now();
  let next = 0;
  let timedOut = false;
  const feed = async (): Promise<void> => {
    while (next < o.count) {
      if (performance.now() - started > o.maxMs) {
        timedOut = true;
        return;
      }
      const index = next++;
      if (!o.done.has(index)) await o.play(index);
    }
  };
  await Promise.all(Array.from({ length: o.workers }, feed));
  return timedOut;
}
