// SQLite's WAL checkpoints off the event loop. Left to SQLite, the commit that fills the WAL
// past its limit copies it back into the database file itself, inside the call that committed:
// on the main thread, a stall of milliseconds about once every few hundred moves. Instead the
// store's own connection never checkpoints, and a worker thread with a connection of its own
// runs a PASSIVE checkpoint (it waits for no reader or writer) every so many commits.

import { Worker } from 'node:worker_threads';
import type { CheckpointAnswer, CheckpointerData, CheckpointerMessage } from './wal-checkpointer-thread.ts';
import { threadModule } from '../../thread-priority.ts';

/** Commits between two checkpoints: the WAL stays near this many transactions long (about as
 * long as SQLite's own limit of 1000 pages). Measured (bench/sqlite-commits): every 25 or 100
 * commits the checkpoints collide with the commits often enough to show in their tail; every 400
 * the tail is the machine's own. */
export const COMMITS_PER_CHECKPOINT = 400;

const threadFile = threadModule(import.meta.url, 'wal-checkpointer-thread');

export class WalCheckpointer {
  private readonly worker: Worker;
  private commits = 0;
  private exited = false;
  /** Checkpoints that copied something into the database file (what a test or a bench watches). */
  checkpoints = 0;

  /** `fallBack` runs if the worker cannot run (the store then checkpoints as SQLite does);
   * `failed` for each checkpoint that failed (the next is asked for after as many commits). The
   * thread runs at OS nice value `nice` (thread-priority.ts). */
  constructor(path: string, nice: number, fallBack: (reason: string) => void, failed: (reason: string) => void = () => {}) {
    this.worker = new Worker(threadFile, { workerData: { path, nice } satisfies CheckpointerData });
    this.worker.on('message', (m: CheckpointAnswer) => {
      if ('checkpointed' in m && m.checkpointed > 0) this.checkpoints++;
      if ('failed' in m) failed(m.failed);
    });
    // An error is followed by an exit: the store hears of it once.
    let fellBack = false;
    const fail = (reason: string) => {
      if (!fellBack) fallBack(reason);
      fellBack = true;
    };
    this.worker.on('error', (e) => fail(e.message));
    this.worker.on('exit', (code) => {
      this.exited = true;
      if (code !== 0) fail(`the checkpoint thread exited with code ${code}`);
    });
    // A checkpoint is never a reason to keep the process alive (after the listeners: adding one
    // refs the worker again).
    this.worker.unref();
  }

  /** `count` writes committed (the writer thread's may share one transaction). */
  committed(count = 1): void {
    this.commits += count;
    if (this.commits < COMMITS_PER_CHECKPOINT || this.exited) return;
    this.commits = 0;
    this.worker.postMessage('checkpoint' satisfies CheckpointerMessage);
  }

  /** Closes the worker's connection before the store's: the store's close, the last one, then
   * checkpoints what is left and removes the WAL. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    // Kept alive until its connection is closed: a WAL still open would outlive the store's.
    this.worker.ref();
    this.worker.postMessage('close' satisfies CheckpointerMessage);
    await exited;
  }
}
