// SQLite's WAL checkpoints off the event loop. Left to SQLite, the commit that fills the WAL
// past its limit copies it back into the database file itself, inside the call that committed:
// on the main thread, a stall of milliseconds about once every few hundred moves. Instead the
// store's own connection never checkpoints, and a worker thread with a connection of its own
// runs a PASSIVE checkpoint (it waits for no reader or writer) every so many commits.

import { Worker } from 'node:worker_threads';

/** Commits between two checkpoints: the WAL stays near this many transactions long (about as
 * long as SQLite's own limit of 1000 pages). Measured (bench/sqlite-commits): every 25 or 100
 * commits the checkpoints collide with the commits often enough to show in their tail; every 400
 * the tail is the machine's own. */
export const COMMITS_PER_CHECKPOINT = 400;

// Run as a plain script (eval), so the same code serves the TypeScript source and the build.
const WORKER = `
const { DatabaseSync } = require('node:sqlite');
const { parentPort, workerData } = require('node:worker_threads');
const db = new DatabaseSync(workerData.path);
db.exec('PRAGMA busy_timeout = 1000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').all();
    parentPort.postMessage({ checkpointed: result.checkpointed });
  } catch (e) {
    parentPort.postMessage({ failed: e.message });
  }
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;
  private commits = 0;
  private exited = false;
  /** Checkpoints that copied something into the database file (what a test or a bench watches). */
  checkpoints = 0;

  /** `fallBack` runs if the worker cannot run (the store then checkpoints as SQLite does);
   * `failed` for each checkpoint that failed (the next is asked for after as many commits). */
  constructor(path: string, fallBack: (reason: string) => void, failed: (reason: string) => void = () => {}) {
    this.worker = new Worker(WORKER, { eval: true, workerData: { path } });
    this.worker.on('message', (m: { checkpointed?: number; failed?: string }) => {
      if (typeof m.checkpointed === 'number' && m.checkpointed > 0) this.checkpoints++;
      if (m.failed !== undefined) failed(m.failed);
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

  /** One transaction committed. */
  committed(): void {
    if (++this.commits < COMMITS_PER_CHECKPOINT || this.exited) return;
    this.commits = 0;
    this.worker.postMessage('checkpoint');
  }

  /** Closes the worker's connection before the store's: the store's close, the last one, then
   * checkpoints what is left and removes the WAL. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    // Kept alive until its connection is closed: a WAL still open would outlive the store's.
    this.worker.ref();
    this.worker.postMessage('close');
    await exited;
  }
}
