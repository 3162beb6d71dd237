// One game's store writes, one at a time: a move is checked against the state the write before it
// left, never against a state mid-write. A write the store could not commit is a `false` with its
// cause kept for the player's message; a write fenced off means another instance owns the game.

import type { Logger } from 'pino';
import { type GameStore, OwnershipLostError } from './store.ts';
import { STORAGE_CAUSES, StorageError } from '../storage/errors.ts';

export class WriteQueue {
  private readonly store: GameStore;
  private readonly log: Logger;
  /** Another instance owns the game now (a cluster): the room is handed over. */
  private readonly lost: () => void;
  /** The tail of the queue, and how many writes are queued or running. */
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** Why the last write failed (disk, database…). */
  private failure: StorageError | null = null;

  constructor(store: GameStore, log: Logger, lost: () => void) {
    this.store = store;
    this.log = log;
    this.lost = lost;
  }

  /** A write is queued or running. */
  get busy(): boolean {
    return this.queued > 0;
  }

  /** Why the last write failed, for the player's message. */
  get unstoredReason(): string {
    return this.failure?.reason ?? STORAGE_CAUSES.disk;
  }

  /** Runs `fn` after every write queued before it has settled. Its failure is the caller's to
   * handle (the returned promise); the queue goes on. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = this.tail.then(fn).finally(() => {
      this.queued--;
    });
    this.tail = run.catch(() => {});
    return run;
  }

  /** Runs a store write; false (logged by the store's watcher) when it could not commit. */
  async commit(write: (store: GameStore) => Promise<void>): Promise<boolean> {
    try {
      await write(this.store);
      return true;
    } catch (e) {
      if (e instanceof StorageError) {
        this.failure = e;
        return false;
      }
      if (e instanceof OwnershipLostError) {
        this.log.warn({ err: e.message }, 'write fenced off: another instance owns this game now');
        this.lost();
        return false;
      }
      throw e;
    }
  }
}
