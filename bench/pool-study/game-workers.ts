// The main side of "one Worker per game": a game's thread is spawned when the game starts, takes
// that game's searches in order (a game's bot moves come one after another) and is terminated
// once the game's last search has answered.

import { Worker } from 'node:worker_threads';
import { benchFile } from '../lib/paths.ts';
import type { SearchTask } from '../../server/pool/search.ts';
import type { StudyResult } from './worker.ts';

interface GameThread {
  worker: Worker;
  /** Replies arrive in the order the searches were posted. */
  waiting: { resolve: (r: StudyResult) => void; reject: (e: Error) => void }[];
  left: number;
  /** Resolves when the thread has loaded its modules. */
  ready: Promise<void>;
}

export class GameWorkers {
  private readonly games = new Map<number, GameThread>();
  /** Thread ids of every worker started, in order. */
  readonly threadIds: number[] = [];
  /** Game threads alive now, and the most at once. */
  live = 0;
  peakLive = 0;

  /** Starts game `id`'s thread, which ends after `searches` searches. */
  start(id: number, searches: number): Promise<void> {
    const existing = this.games.get(id);
    if (existing) return existing.ready;
    const worker = new Worker(benchFile('pool-study/per-game.ts'), { execArgv: [] });
    let loaded!: () => void;
    const ready = new Promise<void>((resolve) => (loaded = resolve));
    const g: GameThread = { worker, waiting: [], left: searches, ready };
    this.games.set(id, g);
    this.threadIds.push(worker.threadId);
    this.peakLive = Math.max(this.peakLive, ++this.live);
    worker.on('message', (r: StudyResult | 'ready') => (r === 'ready' ? loaded() : g.waiting.shift()?.resolve(r)));
    const fail = (e: Error) => {
      loaded();
      for (const w of g.waiting.splice(0)) w.reject(e);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => {
      this.live--;
      if (g.waiting.length) fail(new Error(`game ${id} worker exited ${code}`));
    });
    return ready;
  }

  /** One search of game `id` (started here if its start timer has not fired yet). */
  search(id: number, searches: number, task: SearchTask): Promise<StudyResult> {
    this.start(id, searches);
    const g = this.games.get(id)!;
    return new Promise<StudyResult>((resolve, reject) => {
      g.waiting.push({ resolve, reject });
      g.worker.postMessage(task, [task.state]);
    }).finally(() => {
      if (--g.left === 0) void g.worker.terminate();
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.games.values()].map((g) => g.worker.terminate()));
  }
}
