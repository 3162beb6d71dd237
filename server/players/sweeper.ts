// Expired sessions and idle guests leave the player store: at boot, then every hour. A boot
// sweep matters: a server restarted more often than the interval would otherwise never sweep.

import type { Logger } from 'pino';
import { type PlayerStore, SWEEP_BATCH, type SweepCount } from './store.ts';

export const SWEEP_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export class PlayerSweeper {
  private readonly players: PlayerStore;
  private readonly idleMs: number;
  private readonly log: Pick<Logger, 'info' | 'error'>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(players: PlayerStore, guestIdleDays: number, log: Pick<Logger, 'info' | 'error'>) {
    this.players = players;
    this.idleMs = guestIdleDays * DAY_MS;
    this.log = log;
  }

  /** Sweeps now and every SWEEP_EVERY_MS until stop(). */
  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in progress (the store closes after). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Sweeps until a batch comes back short: a backlog goes in several short transactions. */
  async sweep(now = Date.now()): Promise<SweepCount> {
    const total = { sessions: 0, guests: 0 };
    let batch: SweepCount;
    do {
      batch = await this.players.sweep(now, now - this.idleMs);
      total.sessions += batch.sessions;
      total.guests += batch.guests;
    } while (batch.guests === SWEEP_BATCH);
    return total;
  }

  /** One timer tick: sweeps never overlap (a slow store must not pile them up). */
  private tick(): void {
    if (this.running) return;
    this.running = this.sweep()
      .then((swept) => {
        if (swept.sessions + swept.guests > 0) this.log.info(swept, 'swept expired sessions and idle guests');
      })
      .catch((err) => this.log.error({ err }, 'player sweep failed'))
      .finally(() => {
        this.running = null;
      });
  }
}
