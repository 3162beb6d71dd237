// All games of this instance: creation (with capacity checks), lookup, listing, recovery.

import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { normalizeRules } from '../../bot-engine/game.ts';
import type { Rules } from '../../bot-engine/rules.ts';
import type { Metrics } from '../metrics.ts';
import { type BotMover, Room } from './room.ts';
import type { GameStore, SeatSetup } from './store.ts';

export interface CreateGameRequest {
  seats: SeatSetup[];
  rules?: Partial<Rules>;
}

/** Refused for lack of capacity: the HTTP layer answers 503 with Retry-After. */
export class OverloadError extends Error {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface ServiceOptions {
  store: GameStore;
  bots: BotMover;
  log: Logger;
  metrics: Metrics;
  maxGames: number;
  /** Reason the bot pool cannot take more games, or null. */
  overloaded: () => string | null;
}

export class GameService {
  private readonly rooms = new Map<string, Room>();
  private readonly options: ServiceOptions;

  constructor(options: ServiceOptions) {
    this.options = options;
  }

  create(request: CreateGameRequest): Room {
    const busy = this.options.overloaded();
    if (busy) throw new OverloadError(busy, 5);
    if (this.activeCount() >= this.options.maxGames) throw new OverloadError(`this server holds its maximum of ${this.options.maxGames} games`, 30);
    const rules = normalizeRules(request.rules);
    const setup = { id: randomBytes(12).toString('base64url'), createdAt: new Date().toISOString(), seed: randomBytes(16).toString('hex'), rules, seats: request.seats.map((s) => (s.kind === 'bot' ? { kind: s.kind, level: s.level } : { kind: s.kind })) };
    const room = Room.create(setup, this.deps());
    this.rooms.set(room.id, room);
    this.publish();
    return room;
  }

  get(id: string): Room | undefined {
    return this.rooms.get(id);
  }

  /** Games with an open seat, newest first. */
  open(limit = 50): Room[] {
    return [...this.rooms.values()]
      .filter((r) => r.status === 'waiting')
      .reverse()
      .slice(0, limit);
  }

  /** Rebuilds every unfinished stored game (restart recovery). */
  restore(): number {
    let n = 0;
    for (const stored of this.options.store.unfinished()) {
      if (this.rooms.has(stored.setup.id)) continue;
      this.rooms.set(stored.setup.id, Room.restore(stored, this.deps()));
      n++;
    }
    this.publish();
    return n;
  }

  activeCount(): number {
    let n = 0;
    for (const r of this.rooms.values()) if (r.status !== 'finished') n++;
    return n;
  }

  /** Recounts active games (called when a game may have changed status). */
  publish(): void {
    this.options.metrics.games.set(this.activeCount());
  }

  /** Shutdown, first step: bot searches in flight may finish and be stored, within `graceMs`. */
  async drain(graceMs: number): Promise<void> {
    for (const r of this.rooms.values()) r.drain();
    const until = Date.now() + graceMs;
    while ([...this.rooms.values()].some((r) => r.busy) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  close(): void {
    for (const r of this.rooms.values()) r.close();
  }

  private deps() {
    return { store: this.options.store, bots: this.options.bots, log: this.options.log };
  }
}
