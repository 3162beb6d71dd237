// The moves' writes off the event loop. A commit per move on the main thread cost ~18 % of its
// CPU under load (statements, BEGIN/COMMIT, the WAL's write() calls: docs/BENCHMARKS.md); a
// worker thread with a connection of its own to the same file does them instead, committing the
// requests that arrive together in one transaction. A move's promise settles after its commit,
// so an acknowledged move is on disk as before.

import { Worker } from 'node:worker_threads';
import { type AppendRequest, unwritable, writeFailure } from './moves.ts';
import type { WriteOutcome, WriterData, WriterMessage } from './writer-thread.ts';
import { threadModule } from '../../thread-priority.ts';

const threadFile = threadModule(import.meta.url, 'writer-thread');

interface Waiting {
  resolve: () => void;
  reject: (e: Error) => void;
}

export class SqliteWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private stopped: string | null = null;
  private readonly settled: (committed: number) => void;
  private readonly stoppedBy: (reason: string) => void;
  /** Transactions the thread has run, one per answer (fewer than the requests when it groups them). */
  commits = 0;

  /** `settled(count)` after each answer from the thread (with the requests that committed);
   * `stoppedBy(reason)` once if the thread dies: what was in flight is refused, the store writes
   * on its own connection from then on. */
  constructor(data: WriterData, settled: (committed: number) => void, stoppedBy: (reason: string) => void) {
    this.settled = settled;
    this.stoppedBy = stoppedBy;
    this.worker = new Worker(threadFile, { workerData: data });
    this.worker.on('message', (outcomes: WriteOutcome[]) => this.answered(outcomes));
    this.worker.on('error', (e) => this.stop(e.message));
    this.worker.on('exit', (code) => this.stop(`the writer thread exited with code ${code}`));
    this.worker.unref();
  }

  /** The thread takes writes: it has not stopped. */
  get running(): boolean {
    return this.stopped === null;
  }

  /** Requests posted and not yet answered. */
  get inFlight(): number {
    return this.waiting.size;
  }

  /** Posts one game's moves at once (synchronously: inFlight counts it on return). */
  append(request: AppendRequest): Promise<void> {
    if (this.stopped) return Promise.reject(unwritable(this.stopped));
    const id = this.nextId++;
    // Kept alive while a write is in flight, never by the thread alone.
    if (this.waiting.size === 0) this.worker.ref();
    const answer = new Promise<void>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.worker.postMessage({ ...request, id } satisfies WriterMessage);
    return answer;
  }

  private answered(outcomes: WriteOutcome[]): void {
    this.commits++;
    let committed = 0;
    for (const o of outcomes) {
      const w = this.waiting.get(o.id);
      if (!w) continue;
      this.waiting.delete(o.id);
      if (o.error) w.reject(writeFailure(Object.assign(new Error(o.error.message), { code: o.error.code, errcode: o.error.errcode })));
      else {
        committed++;
        w.resolve();
      }
    }
    if (this.waiting.size === 0) this.worker.unref();
    this.settled(committed);
  }

  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = reason;
    for (const w of this.waiting.values()) w.reject(unwritable(reason));
    this.waiting.clear();
    this.stoppedBy(reason);
    this.settled(0);
  }

  /** After the last answer (the store sends nothing more): closes the thread's connection. */
  async close(): Promise<void> {
    if (this.stopped) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.stopped = 'the store is closed';
    this.worker.ref();
    this.worker.postMessage('close' satisfies WriterMessage);
    await exited;
  }
}
