// When a bot stands in for a person: their turn clock ran out, or (in games with other people
// waiting on them) they stayed disconnected past the grace period. They take the seat back by
// reconnecting, by moving, or with a `claim` frame. In a turn-based game there is no timer here:
// the deadline sweep (deadlines.ts) sets a stand-in for one missed move, or drops the seat for
// good after MISSED_TURNS_DROP of them.

import type { Logger } from 'pino';
import type { GameSetup } from './store.ts';
import type { StandInReason } from '../wire/game.ts';

export type { StandInReason };

export interface SeatClockHooks {
  isPerson(seat: number): boolean;
  playing(): boolean;
  currentSeat(): number;
  onStandIn(seat: number, reason: StandInReason): void;
}

export class SeatClock {
  private readonly turnSeconds: number | null;
  private readonly graceMs: number;
  private readonly hooks: SeatClockHooks;
  private readonly log: Logger;
  private readonly standInLevel: GameSetup['standIn'];
  /** Only where other people would wait: a solo game against bots just waits for its person; a
   * turn-based game waits for its deadlines, nobody is expected to stay connected. */
  private readonly awayApplies: boolean;
  private readonly turnBased: boolean;
  private readonly reasons: (StandInReason | null)[];
  /** When each person seat's connections last all closed (ms), or null while connected. */
  private readonly left: (number | null)[];
  private readonly awayTimers = new Map<number, NodeJS.Timeout>();
  private turnTimer: NodeJS.Timeout | null = null;
  private turnDeadline: number | null = null;

  constructor(setup: GameSetup, hooks: SeatClockHooks, log: Logger) {
    this.turnSeconds = setup.clock.turnSeconds;
    this.graceMs = setup.clock.graceSeconds * 1000;
    this.hooks = hooks;
    this.log = log;
    this.standInLevel = setup.standIn;
    this.turnBased = setup.pace !== undefined;
    this.awayApplies = !this.turnBased && setup.seats.filter((s) => s.kind === 'person').length >= 2;
    this.reasons = setup.seats.map(() => null);
    this.left = setup.seats.map(() => null);
  }

  /** When the seat's person left (ms since the epoch), or null while they are connected. */
  leftAt(seat: number): number | null {
    return this.left[seat];
  }

  /** Why a bot plays this person's seat now, or null. */
  reason(seat: number): StandInReason | null {
    return this.reasons[seat];
  }

  /** Epoch milliseconds when the current person's turn clock runs out, or null. */
  get deadline(): number | null {
    return this.turnDeadline;
  }

  /** The person takes the seat back from its stand-in (their turn clock starts if it is their
   * turn); false when no bot stands in for it. */
  reclaim(seat: number): boolean {
    // Dropped is for good; a missed turn's stand-in plays that one move and then lets go.
    if (this.reasons[seat] === null || this.reasons[seat] === 'dropped' || this.turnBased) return false;
    this.reasons[seat] = null;
    this.log.info({ seat }, 'seat taken back from the stand-in bot');
    this.armTurn();
    return true;
  }

  presence(seat: number, connected: boolean): void {
    if (!this.hooks.isPerson(seat) || this.reasons[seat] === 'dropped') return;
    const timer = this.awayTimers.get(seat);
    // A second tab closing later does not move the moment they left.
    this.left[seat] = connected ? null : (this.left[seat] ?? Date.now());
    if (connected) {
      if (timer) clearTimeout(timer);
      this.awayTimers.delete(seat);
      return;
    }
    // A stand-in for a turn clock that ran out plays on for someone still here: once they are gone
    // past the grace period too, they left (a rated game places leavers last).
    if (timer || !this.awayApplies || !this.hooks.playing() || !this.mayGoAway(seat)) return;
    const t = setTimeout(() => {
      this.awayTimers.delete(seat);
      if (!this.hooks.playing() || !this.mayGoAway(seat)) return;
      if (this.hooks.currentSeat() === seat) this.clearTurn();
      this.standIn(seat, 'away');
    }, this.graceMs);
    t.unref();
    this.awayTimers.set(seat, t);
  }

  private mayGoAway(seat: number): boolean {
    return this.reasons[seat] === null || this.reasons[seat] === 'clock';
  }

  /** The game starts (or a restored one goes on): each person's presence as it is now (a
   * person away from the start is away from now), and the clock of the seat to move. */
  start(connected: (seat: number) => boolean): void {
    for (let seat = 0; seat < this.reasons.length; seat++) this.presence(seat, connected(seat));
    this.armTurn();
  }

  /** Starts the clock for the seat to move now, if a person plays it and the game has one. */
  armTurn(): void {
    this.clearTurn();
    if (this.turnSeconds === null || !this.hooks.playing()) return;
    const seat = this.hooks.currentSeat();
    if (!this.hooks.isPerson(seat) || this.reasons[seat] !== null) return;
    this.turnDeadline = Date.now() + this.turnSeconds * 1000;
    this.turnTimer = setTimeout(() => {
      this.turnTimer = null;
      this.turnDeadline = null;
      if (!this.hooks.playing() || this.hooks.currentSeat() !== seat) return;
      this.standIn(seat, 'clock');
    }, this.turnSeconds * 1000);
    this.turnTimer.unref();
  }

  /** A timer's work: a failure is logged here, never thrown into the timer. */
  private standIn(seat: number, reason: StandInReason): void {
    this.reasons[seat] = reason;
    try {
      this.log.info({ seat, reason, botLevel: this.standInLevel }, reason === 'clock' ? 'turn clock ran out: a bot plays the seat' : 'person away past the grace period: a bot plays the seat');
      this.hooks.onStandIn(seat, reason);
    } catch (err) {
      this.log.error({ err, what: 'stand-in' }, 'game timer failed');
    }
  }

  /** A turn-based game's missed move: the stand-in plays it (the room starts its turn). */
  missedTurn(seat: number): void {
    this.reasons[seat] = 'clock';
    this.log.info({ seat, botLevel: this.standInLevel }, 'turn-based deadline passed: the stand-in bot plays this move');
  }

  /** A turn-based seat dropped after too many missed turns (at `at`, ms): a bot plays it for good. */
  drop(seat: number, at: number): void {
    this.reasons[seat] = 'dropped';
    this.left[seat] = at;
  }

  /** A move was stored: in a turn-based game the missed turn's stand-in lets the seat go. */
  moved(seat: number): void {
    if (this.turnBased && this.reasons[seat] === 'clock') this.reasons[seat] = null;
  }

  stop(): void {
    this.clearTurn();
    for (const t of this.awayTimers.values()) clearTimeout(t);
    this.awayTimers.clear();
  }

  private clearTurn(): void {
    if (this.turnTimer) clearTimeout(this.turnTimer);
    this.turnTimer = null;
    this.turnDeadline = null;
  }
}
