// The game store as the server uses it, and the one watch over its database's writes (the
// players' come through write(): watched/players.ts): every write is counted, and a failing store (a
// full or broken disk) is known, so /readyz says "not ready" and /metrics shows it, until a write
// commits again. Failures are logged once per streak: a full disk must not also flood the logs. Only the
// store's own faults (StorageError) count: a refusal or a broken constraint (ConstraintError: a
// request's doing) passes through, and the instance stays ready.

import type { Logger } from 'pino';
import type { Metrics } from '../../metrics.ts';
import type { DocumentKind, DueTurn, GameDocument, GameEnd, GamePage, GameQuery, GameSetup, GameStore, MetadataChange, SeatHolder, StoredGame } from '../../games/store.ts';
import { StorageError } from '../errors.ts';
import type { RecordMove } from '../../../bot-engine/record.ts';

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
  get(id: string): Promise<StoredGame | undefined> {
    return this.inner.get(id);
  }
  appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    return this.write(end?.abandoned ? 'abandon' : 'moves', () => this.inner.appendMoves(id, moves, end));
  }
  update(id: string, change: MetadataChange): Promise<void> {
    return this.write(change.name, () => this.inner.update(id, change));
  }
  list(query: GameQuery): Promise<GamePage> {
    return this.inner.list(query);
  }
  dueTurns(before: number, limit: number): Promise<DueTurn[]> {
    return this.inner.dueTurns(before, limit);
  }
  putDocument(id: string, kind: DocumentKind, document: GameDocument): Promise<void> {
    return this.write(kind, () => this.inner.putDocument(id, kind, document));
  }
  getDocument(id: string, kind: DocumentKind): Promise<GameDocument | undefined> {
    return this.inner.getDocument(id, kind);
  }
  probe(): Promise<void> {
    return this.write('probe', () => this.inner.probe());
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  /** Runs a write of the same database (the players' and sessions', server/players/): a failure
   * shows in readiness and metrics as a game write's does, and a commit clears it. */
  async write<T>(op: string, fn: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await fn();
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
    return result;
  }
}
