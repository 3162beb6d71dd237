// All games of this instance: creation (with capacity checks), lookup, listing, recovery,
// rematches.

import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { normalizeRules } from '../../bot-engine/game.ts';
import { replayRecord } from '../../bot-engine/record.ts';
import type { Rules } from '../../bot-engine/rules.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { Metrics } from '../metrics.ts';
import { ApiError } from '../errors.ts';
import type { FinishedGame } from '../wire/api.ts';
import { type BotMover, Room } from './room.ts';
import type { ClockSetup, GameSetup, GameStore, ListFinishedQuery, SeatSetup, StoredGame } from './store.ts';

export interface CreateGameRequest {
  seats: SeatSetup[];
  rules?: Partial<Rules>;
  /** Turn clock; by default off when one person plays bots, on (DEFAULT_TURN_SECONDS) with more people. */
  clock?: Partial<ClockSetup>;
  standIn?: BotLevel;
}

export const DEFAULT_TURN_SECONDS = 120;
export const DEFAULT_GRACE_SECONDS = 60;
export const DEFAULT_STAND_IN: BotLevel = 'heuristic';

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

  create(request: CreateGameRequest, rematchOf?: string): Room {
    const busy = this.options.overloaded();
    if (busy) throw new OverloadError(busy, 5);
    if (this.activeCount() >= this.options.maxGames) throw new OverloadError(`this server holds its maximum of ${this.options.maxGames} games`, 30);
    const people = request.seats.filter((s) => s.kind === 'person').length;
    const setup: GameSetup = {
      id: randomBytes(12).toString('base64url'),
      createdAt: new Date().toISOString(),
      seed: randomBytes(16).toString('hex'),
      rules: normalizeRules(request.rules),
      seats: request.seats.map((s) => (s.kind === 'bot' ? { kind: s.kind, level: s.level } : { kind: s.kind })),
      clock: {
        turnSeconds: request.clock?.turnSeconds !== undefined ? request.clock.turnSeconds : people > 1 ? DEFAULT_TURN_SECONDS : null,
        graceSeconds: request.clock?.graceSeconds ?? DEFAULT_GRACE_SECONDS,
      },
      standIn: request.standIn ?? DEFAULT_STAND_IN,
      ...(rematchOf ? { rematchOf } : {}),
    };
    const room = Room.create(setup, this.deps());
    this.rooms.set(room.id, room);
    this.publish();
    return room;
  }

  /** A game of this instance; finished games not in memory are loaded from the store. */
  get(id: string): Room | undefined {
    const room = this.rooms.get(id);
    if (room) return room;
    const stored = this.options.store.get(id);
    if (!stored) return undefined;
    const loaded = this.load(stored);
    loaded.resumeBots();
    return loaded;
  }

  /** Games with an open seat, newest first (rematches keep their seats for their players). */
  open(limit = 50): Room[] {
    return [...this.rooms.values()]
      .filter((r) => r.status === 'waiting' && !r.setup.rematchOf)
      .reverse()
      .slice(0, limit);
  }

  /** Rebuilds every unfinished stored game (restart recovery). Their bots wait for resumeBots(). */
  restore(): number {
    let n = 0;
    for (const stored of this.options.store.unfinished()) {
      if (this.rooms.has(stored.setup.id)) continue;
      // One record that no longer replays must not keep every other game (and the server) down;
      // it stays in the store untouched for an operator to look at.
      try {
        this.load(stored);
        n++;
      } catch (err) {
        this.options.log.error({ err, gameId: stored.setup.id }, 'stored game does not replay: not restored');
      }
    }
    this.publish();
    if (n > 0) this.options.log.info({ games: n }, 'unfinished games restored from the store');
    return n;
  }

  /** The pool is warm: restored games' bots may move. */
  resumeBots(): void {
    for (const r of this.rooms.values()) r.resumeBots();
  }

  /** The same seats, rules and clock again. The first player to ask creates it; each person
   * gets their own seat (same seat, same name) with a new token. */
  rematch(id: string, token: string): { room: Room; seat: number; token: string } {
    const old = this.get(id);
    if (!old) throw new ApiError('unknown_game', `no game ${JSON.stringify(id)}`);
    if (old.status !== 'finished') throw new ApiError('not_finished', 'a rematch starts from a finished game');
    const seat = old.seatOf(token);
    if (seat === null) throw new ApiError('bad_token', 'this token holds no seat in that game');
    let room = old.rematch ? this.get(old.rematch) : undefined;
    if (!room) {
      const { seats, rules, clock, standIn } = old.setup;
      room = this.create({ seats, rules, clock, standIn }, old.id);
      old.setRematch(room.id);
    }
    const joined = room.join(old.holderName(seat) ?? `seat ${seat + 1}`, seat, true);
    if ('error' in joined) throw new ApiError(joined.error, joined.message);
    return { room, seat: joined.seat, token: joined.token };
  }

  /** Finished games from the store, most recent first, with their final scores. */
  finished(query: ListFinishedQuery): { games: FinishedGame[]; next: string | null } {
    const page = this.options.store.listFinished(query);
    return { games: page.games.map((g) => summarizeFinished(g)), next: page.next };
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

  private load(stored: StoredGame): Room {
    const room = Room.restore(stored, this.deps());
    this.rooms.set(room.id, room);
    // Rematch links, whichever of the two games is loaded first.
    if (stored.setup.rematchOf) this.rooms.get(stored.setup.rematchOf)?.setRematch(room.id);
    for (const r of this.rooms.values()) if (r.setup.rematchOf === room.id) room.setRematch(r.id);
    return room;
  }

  private deps() {
    return { store: this.options.store, bots: this.options.bots, log: this.options.log };
  }
}

function summarizeFinished(g: StoredGame & { finishedAt: string }): FinishedGame {
  const record = Room.recordOf(g);
  const names = record.players;
  const { scores } = replayRecord(record);
  return {
    id: g.setup.id,
    createdAt: g.setup.createdAt,
    finishedAt: g.finishedAt,
    rules: g.setup.rules,
    players: g.setup.seats.map((s, i) => ({ seat: i, name: names[i], kind: s.kind, ...(s.level ? { level: s.level } : {}), score: scores[names[i]] })),
  };
}
