// Game ownership in a cluster: this instance renews the leases of the games it owns (every third
// of the lease), takes over games whose owner's lease ran out (an instance died: scanned every
// second, replayed from their records; at boot, those still leased to this instance id at once,
// then swept for expired ones; a seated turn-based game is not taken: the instance a player or
// its deadline reaches loads it, GameService.holdTurnBasedBy),
// and drops games another instance took (fenced writes or a failed renewal). The lease and the
// fencing epoch live in PostgreSQL beside the records, so a stale owner's write fails in the same
// transaction that would have stored it.

import type { Logger } from 'pino';
import type { GameService } from '../games/service.ts';
import type { LeaseStore } from './lease-store.ts';
import { type DamagedGame, isDamaged, type StoredGame } from '../games/store.ts';

export interface LeaseOptions {
  store: LeaseStore;
  games: GameService;
  log: Logger;
  /** Unfinished games this instance may take on now (its maximum minus those it holds). */
  spareCapacity: () => number;
  /** How often expired leases are looked for. */
  scanMs?: number;
}

export class Leases {
  private readonly options: LeaseOptions;
  private readonly timers: NodeJS.Timeout[] = [];
  private renewing = false;
  private scanning = false;
  private stopped = false;

  constructor(options: LeaseOptions) {
    this.options = options;
  }

  start(): void {
    const { store } = this.options;
    this.timers.push(setInterval(() => void this.renew(), Math.max(100, Math.floor(store.leaseMs / 3))));
    this.timers.push(setInterval(() => void this.scan(), this.options.scanMs ?? Math.min(1000, store.leaseMs / 2)));
    for (const t of this.timers) t.unref();
    void this.reclaim().then(() => this.scan());
  }

  /** At boot: games still leased to this instance id (a restart under the same id) are ours at once. */
  private async reclaim(): Promise<void> {
    this.scanning = true;
    try {
      const n = this.adoptAll(await this.options.store.reclaimOwn(Math.min(500, this.options.spareCapacity())));
      if (n > 0) this.options.log.info({ games: n }, 'games still leased to this instance id taken back at boot');
      // As a lone server's boot does: an instance in a crash loop still ends its expired games.
      if (n > 0) await this.options.games.sweepNow();
    } catch (err) {
      // Not fatal: the leases run out and the scan takes the games like any others.
      this.options.log.warn({ err: (err as Error).message }, 'taking back this instance’s games failed');
    } finally {
      this.scanning = false;
    }
  }

  private adoptAll(taken: (StoredGame | DamagedGame)[]): number {
    let n = 0;
    for (const stored of taken) {
      if (this.options.games.adopt(stored)) n++;
      // A damaged one was set aside (GameService): never taken again by this instance.
      else this.options.store.release(isDamaged(stored) ? stored.id : stored.setup.id);
    }
    return n;
  }

  /** Extends this instance's leases; games it turns out to have lost are dropped. */
  async renew(): Promise<void> {
    if (this.renewing || this.stopped) return;
    this.renewing = true;
    try {
      for (const id of await this.options.store.renew()) this.options.games.drop(id);
    } catch (err) {
      // The database is unreachable: writes fail too (nothing forks); renewal tries again.
      this.options.log.warn({ err: (err as Error).message }, 'lease renewal failed');
    } finally {
      this.renewing = false;
    }
  }

  /** Takes over games whose owner is gone, as many as this instance has spare capacity for. */
  async scan(): Promise<number> {
    if (this.scanning || this.stopped) return 0;
    this.scanning = true;
    try {
      const n = this.adoptAll(await this.options.store.claimExpired(Math.min(50, this.options.spareCapacity())));
      if (n > 0) this.options.log.info({ games: n }, 'games taken over from an instance whose lease ran out');
      return n;
    } catch (err) {
      this.options.log.warn({ err: (err as Error).message }, 'lease scan failed');
      return 0;
    } finally {
      this.scanning = false;
    }
  }

  /** A clean shutdown: stop, and end this instance's leases so others take its games at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await this.options.store.releaseAll();
  }
}
