// The game store as the server uses it: every write is counted, and a failing store (a full or
// broken disk) is known, so /readyz says "not ready" and /metrics shows it, until a write commits
// again. Failures are logged once per streak: a full disk must not also flood the logs.

import type { Logger } from 'pino';
import type { Metrics } from '../metrics.ts';
import {
  type AnalysisDocument,
  type DamagedGame,
  type FinishedPage,
  type GameEnd,
  type GameSetup,
  type GameStore,
  type ListFinishedQuery,
  type SeatHolder,
  StorageError,
  type StoredGame,
} from './store.ts';
import type { RecordMove } from '../../bot-engine/record.ts';

/** While writes fail, readiness checks try a probe write at most this often. */
export const PROBE_EVERY_MS = 1000;

export class WatchedStore implements GameStore {
  private readonly inner: GameStore;
  private readonly metrics: Metrics;
  private readonly log: Logger;
  private failure: StorageError | null = null;
  private lastProbe = 0;
  private probing = false;

  constructor(inner: GameStore, metrics: Metrics, log: Logger) {
    this.inner = inner;
    this.metrics = metrics;
    this.log = log;
    metrics.storeWritable.set(1);
  }

  /** Why writes fail now, or null. While failing, it probes (rate-limited) for recovery; the
   * probe's outcome shows in the next answer. */
  problem(): string | null {
    return this.failing()?.message ?? null;
  }

  /** The last failed write's error while writes fail, or null (probing as problem() does). */
  failing(): StorageError | null {
    if (this.failure && !this.probing && Date.now() - this.lastProbe >= PROBE_EVERY_MS) {
      this.lastProbe = Date.now();
      this.probing = true;
      this.probe()
        .catch(() => {
          // still failing: this.failure says why
        })
        .finally(() => {
          this.probing = false;
        });
    }
    return this.failure;
  }

  create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void> {
    return this.write('create', () => this.inner.create(setup, holders));
  }
  takeSeat(id: string, seat: number, holder: SeatHolder): Promise<void> {
    return this.write('take_seat', () => this.inner.takeSeat(id, seat, holder));
  }
  appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    return this.write(end?.abandoned ? 'abandon' : 'moves', () => this.inner.appendMoves(id, moves, end));
  }
  setRematch(id: string, rematchId: string): Promise<void> {
    return this.write('rematch', () => this.inner.setRematch(id, rematchId));
  }
  markSeen(id: string, at: number): Promise<void> {
    return this.write('seen', () => this.inner.markSeen(id, at));
  }
  recordHint(id: string, seat: number): Promise<void> {
    return this.write('hint', () => this.inner.recordHint(id, seat));
  }
  saveAnalysis(id: string, analysis: AnalysisDocument): Promise<void> {
    return this.write('analysis', () => this.inner.saveAnalysis(id, analysis));
  }
  getAnalysis(id: string): Promise<AnalysisDocument | undefined> {
    return this.inner.getAnalysis(id);
  }
  probe(): Promise<void> {
    return this.write('probe', () => this.inner.probe());
  }
  get(id: string): Promise<StoredGame | undefined> {
    return this.inner.get(id);
  }
  unfinished(): Promise<(StoredGame | DamagedGame)[]> {
    return this.inner.unfinished();
  }
  listFinished(query: ListFinishedQuery): Promise<FinishedPage> {
    return this.inner.listFinished(query);
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  private async write(op: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      if (!(e instanceof StorageError)) throw e;
      this.metrics.storeWriteFailures.inc({ op });
      if (this.failure === null) this.log.error({ op, cause: (e.cause as Error | undefined)?.message }, `${e.message}: games wait, nothing changes until writes work again`);
      this.failure = e;
      this.metrics.storeWritable.set(0);
      throw e;
    }
    if (this.failure !== null) {
      this.log.info({ op }, 'the game store writes again: play resumes');
      this.failure = null;
      this.metrics.storeWritable.set(1);
    }
  }
}
