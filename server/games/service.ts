// All games of this instance: creation (with capacity checks), lookup, listing, recovery,
// rematches, and their lifecycle in memory: finished games leave it (a small cache serves
// recent ones), abandoned games expire and free their slot.

import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { normalizeRules } from '../../bot-engine/game.ts';
import { type GameRecord, replayRecord } from '../../bot-engine/record.ts';
import type { Rules } from '../../bot-engine/rules.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import { type Config, DEFAULTS } from '../config.ts';
import type { Metrics } from '../metrics.ts';
import { CodedError } from '../errors.ts';
import type { FinishedGame } from '../wire/api.ts';
import { type BotMover, Room, type RoomDeps } from './room.ts';
import { damageOf } from './integrity.ts';
import { type ReadableGame, recordOf, snapshotOf } from './records.ts';
import {
  type ClockSetup,
  type DamagedGame,
  DamagedGameError,
  GameElsewhereError,
  type GameSetup,
  type GameStore,
  isDamaged,
  RematchTakenError,
  type SeatSetup,
  StorageError,
  type StoredGame,
} from './store.ts';
import { type FinishedEntry, type ListFinishedQuery, listFinished, unfinishedGames } from './store-operations.ts';
import { WatchedStore } from './watched-store.ts';
import type { HintSearcher } from '../hints.ts';

export interface CreateGameRequest {
  seats: SeatSetup[];
  rules?: Partial<Rules>;
  /** Turn clock; by default off when one person plays bots, on (DEFAULT_TURN_SECONDS) with more people. */
  clock?: Partial<ClockSetup>;
  standIn?: BotLevel;
  listed?: boolean;
  hints?: boolean;
}

export const DEFAULT_TURN_SECONDS = 120;
export const DEFAULT_GRACE_SECONDS = 60;
export const DEFAULT_STAND_IN: BotLevel = 'heuristic';

/** The rematch is played on another instance: the seat is taken there (through the relay). */
export class RematchElsewhereError extends GameElsewhereError {
  readonly gameId: string;
  readonly playerName: string;
  readonly seat: number;
  constructor(gameId: string, playerName: string, seat: number) {
    super(`the rematch ${gameId} is played on another instance`);
    this.gameId = gameId;
    this.playerName = playerName;
    this.seat = seat;
  }
}

/** Refused for lack of capacity: the client should retry after `retryAfterSeconds`. */
export class OverloadError extends CodedError {
  override name = 'OverloadError';
  declare readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('overloaded', message, { retryAfterSeconds });
  }
}

/** When a game no one plays any more ends (docs/OPERATIONS.md): an open seat nobody took, a
 * started game with no person connected, a started game with no move. */
export type ExpirySettings = Pick<Config, 'expireOpenSeatSeconds' | 'expireAwaySeconds' | 'expireIdleSeconds'>;

export interface ServiceOptions {
  store: GameStore;
  bots: BotMover;
  /** Hint searches (games created with hints); absent: hints are refused. */
  hints?: HintSearcher;
  log: Logger;
  metrics: Metrics;
  maxGames: number;
  /** Reason the bot pool cannot take more games, or null. */
  overloaded: () => string | null;
  /** Defaults: the server's (config.ts DEFAULTS). */
  expiry?: ExpirySettings;
  /** Finished games kept in memory beyond those being watched. */
  finishedCache?: number;
  /** In a cluster: takes over an unfinished game that is in no live instance's hands. */
  takeOver?: (id: string) => Promise<StoredGame | undefined>;
  /** In a cluster: listed games with an open seat on every instance, newest first. */
  listOpen?: (limit: number) => Promise<(StoredGame | DamagedGame)[]>;
  /** In a cluster: a damaged game this instance took is let go and never taken again. */
  setAside?: (id: string) => void;
}

export class GameService {
  /** Unfinished games, and finished ones while someone still watches them. */
  private readonly rooms = new Map<string, Room>();
  /** Recently read finished games, least recently used first. */
  private readonly finishedRooms = new Map<string, Room>();
  private readonly options: ServiceOptions;
  private readonly store: WatchedStore;
  private readonly expiry: ExpirySettings;
  private readonly sweeper: NodeJS.Timeout;
  /** Rematches being created, by the finished game they follow. */
  private sweeping = false;
  /** The pool is warm: rooms loaded from now on move their bots at once. */
  private botsReady = false;
  private readonly rematching = new Map<string, Promise<Room>>();
  /** Games whose stored data does not parse or replay, with why: set aside, never served. */
  private readonly damaged = new Map<string, string>();

  constructor(options: ServiceOptions) {
    this.options = options;
    this.store = new WatchedStore(options.store, options.metrics, options.log);
    this.expiry = options.expiry ?? DEFAULTS;
    const shortest = Math.min(this.expiry.expireOpenSeatSeconds, this.expiry.expireAwaySeconds, this.expiry.expireIdleSeconds) * 1000;
    this.sweeper = setInterval(() => this.sweepOnce(), Math.min(30_000, Math.max(100, shortest / 4)));
    this.sweeper.unref();
    // Counted at each scrape: no per-move recount.
    options.metrics.sources.games = () => ({ active: this.activeCount(), inMemory: this.inMemory });
  }

  /** Why the store cannot write now, or null. */
  storageProblem(): string | null {
    return this.store.problem();
  }

  async create(request: CreateGameRequest, rematchOf?: string): Promise<Room> {
    const storage = this.store.failing();
    if (storage) throw new StorageError(storage.message, { kind: storage.kind });
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
      ...(request.listed && !rematchOf ? { listed: true } : {}),
      ...(request.hints ? { hints: true } : {}),
    };
    const room = await Room.create(setup, this.deps());
    this.rooms.set(room.id, room);
    return room;
  }

  /** A game of this instance; finished games not in memory are loaded from the store. */
  async get(id: string): Promise<Room | undefined> {
    const room = this.rooms.get(id);
    if (room) return room;
    const cached = this.finishedRooms.get(id);
    if (cached) {
      this.finishedRooms.delete(id);
      this.finishedRooms.set(id, cached);
      return cached;
    }
    const known = this.damaged.get(id);
    if (known !== undefined) return this.stillDamaged(id, known);
    let stored = await this.read(id);
    if (!stored) return undefined;
    // In a cluster an unfinished game is played where it is owned: here only if its owner is gone.
    if (!stored.finished && this.options.takeOver) {
      stored = await this.options.takeOver(id);
      if (!stored) throw new GameElsewhereError(`game ${id} is played on another instance`);
      if (!this.rooms.has(id)) this.options.metrics.takeovers.inc();
    }
    // Another request may have loaded it while this one read the store.
    const raced = this.rooms.get(id) ?? this.finishedRooms.get(id);
    if (raced) return raced;
    const loaded = this.rebuild(stored);
    if (loaded.status === 'finished') this.remember(loaded);
    else {
      this.rooms.set(loaded.id, loaded);
      if (this.botsReady) loaded.resumeBots();
    }
    return loaded;
  }

  /** A game as its record stands, for reading only (one another instance plays): one store
   * read and one replay, no room. */
  async peek(id: string): Promise<ReadableGame | undefined> {
    const known = this.damaged.get(id);
    if (known !== undefined) return this.stillDamaged(id, known);
    const stored = await this.read(id);
    if (!stored) return undefined;
    return this.replayed(stored, snapshotOf);
  }

  /** A game's record, read with one store read and no room (the record route, analysis):
   * 'not_finished' while it is played, here or on another instance. A record that does not
   * replay is damaged (set aside), as when a room is loaded from it. */
  async finishedRecord(id: string): Promise<GameRecord | 'not_finished' | undefined> {
    const known = this.damaged.get(id);
    if (known !== undefined) return this.stillDamaged(id, known);
    const live = this.rooms.get(id) ?? this.finishedRooms.get(id);
    if (live && live.status !== 'finished') return 'not_finished';
    const stored = await this.read(id);
    if (!stored) return undefined;
    if (!stored.finished) return 'not_finished';
    const record = recordOf(stored);
    // A room in memory has replayed it already.
    if (!live) this.replayed(stored, () => replayRecord(record));
    return record;
  }

  /** Damaged games set aside (the `tessera_games_damaged` gauge). */
  get damagedCount(): number {
    return this.damaged.size;
  }

  /** A game already found damaged: still so while its row is there (an operator may have
   * removed it meanwhile: then there is no such game). */
  private async stillDamaged(id: string, reason: string): Promise<never | undefined> {
    const present = await this.store.get(id).then(Boolean, (e) => {
      if (e instanceof DamagedGameError) return true;
      throw e;
    });
    if (present) throw new DamagedGameError(id, reason);
    this.damaged.delete(id);
    this.options.metrics.gamesDamaged.set(this.damaged.size);
    return undefined;
  }

  /** A stored game, or undefined; a row that does not parse is set aside (DamagedGameError). */
  private async read(id: string): Promise<StoredGame | undefined> {
    try {
      return await this.store.get(id);
    } catch (e) {
      if (e instanceof DamagedGameError) this.setAside({ id, damaged: e.reason });
      throw e;
    }
  }

  /** The room a stored game replays to; one that does not is set aside (DamagedGameError). */
  private rebuild(stored: StoredGame): Room {
    return this.replayed(stored, (s) => Room.restore(s, this.deps()));
  }

  /** `replay(stored)`, for a stored game that is a game and replays; else it is set aside. */
  private replayed<T>(stored: StoredGame, replay: (stored: StoredGame) => T): T {
    const id = stored.setup.id;
    try {
      const problem = damageOf(stored);
      if (problem) throw new Error(problem);
      return replay(stored);
    } catch (e) {
      const reason = `does not replay: ${(e as Error).message}`;
      this.setAside({ id, damaged: reason });
      throw new DamagedGameError(id, reason);
    }
  }

  /** Counts a damaged game, logs it once (one line, no stack), and lets its lease go. */
  private setAside(game: DamagedGame): void {
    if (this.damaged.has(game.id)) return;
    this.damaged.set(game.id, game.damaged);
    this.options.metrics.gamesDamaged.set(this.damaged.size);
    this.options.log.error({ gameId: game.id, reason: game.damaged }, 'stored game is damaged: set aside, its id answers game_damaged (docs/OPERATIONS.md: npm run games)');
    this.options.setAside?.(game.id);
  }

  /** A game this instance has just taken over (its owner's lease ran out): replayed from its
   * record; people reconnect with their seat tokens, bots move as soon as the pool is warm. */
  adopt(stored: StoredGame | DamagedGame): Room | undefined {
    if (isDamaged(stored)) {
      this.setAside(stored);
      return undefined;
    }
    if (this.rooms.has(stored.setup.id)) return this.rooms.get(stored.setup.id);
    let room: Room;
    try {
      room = this.rebuild(stored);
    } catch (e) {
      if (e instanceof DamagedGameError) return undefined;
      throw e;
    }
    this.rooms.set(room.id, room);
    room.log.info({ turn: room.turn }, 'game taken over from its previous owner');
    this.options.metrics.takeovers.inc();
    if (this.botsReady) room.resumeBots();
    return room;
  }

  /** Another instance owns the game now: its connections are sent away, the room stops. */
  drop(id: string): void {
    const room = this.rooms.get(id);
    if (!room) return;
    this.rooms.delete(id);
    room.log.warn('game lost to another instance (lease ran out): connections sent to reconnect');
    this.options.metrics.gamesLost.inc();
    room.moved();
  }

  /** Games in memory (unfinished, watched, cached): what must stay flat over months. */
  get inMemory(): number {
    return this.rooms.size + this.finishedRooms.size;
  }

  /** Listed games with an open seat, newest first (invite games are reached by their link only). */
  async open(limit = 50): Promise<ReadableGame[]> {
    if (this.options.listOpen) {
      // Games of other instances are shown as their records stand (a waiting game has no moves);
      // a damaged one is left out.
      return (await this.options.listOpen(limit)).flatMap((stored) => {
        if (isDamaged(stored)) {
          this.setAside(stored);
          return [];
        }
        const local = this.rooms.get(stored.setup.id);
        if (local) return [local];
        try {
          return [this.replayed(stored, snapshotOf)];
        } catch (e) {
          if (e instanceof DamagedGameError) return [];
          throw e;
        }
      });
    }
    return [...this.rooms.values()]
      .filter((r) => r.status === 'waiting' && r.setup.listed)
      .reverse()
      .slice(0, limit);
  }

  /** Rebuilds every unfinished stored game (restart recovery). Their bots wait for resumeBots(). */
  async restore(): Promise<number> {
    let n = 0;
    for (const stored of await unfinishedGames(this.store)) {
      // One record that does not parse or replay must not keep every other game (and the
      // server) down: it is set aside, untouched in the store for an operator to look at.
      if (isDamaged(stored)) {
        this.setAside(stored);
        continue;
      }
      if (this.rooms.has(stored.setup.id)) continue;
      try {
        const room = this.rebuild(stored);
        this.rooms.set(room.id, room);
        n++;
      } catch (e) {
        if (!(e instanceof DamagedGameError)) throw e;
      }
    }
    if (n > 0) this.options.log.info({ games: n }, 'unfinished games restored from the store');
    return n;
  }

  /** The pool is warm: restored games' bots may move. */
  resumeBots(): void {
    this.botsReady = true;
    for (const r of this.rooms.values()) r.resumeBots();
  }

  /** The same seats, rules and clock again. The first player to ask creates it; each person
   * gets their own seat (same seat, same name) with a new token. */
  async rematch(id: string, token: string): Promise<{ room: Room; seat: number; token: string }> {
    const old = await this.get(id);
    if (!old) throw new CodedError('unknown_game', `no game ${JSON.stringify(id)}`);
    if (old.status !== 'finished') throw new CodedError('not_finished', 'a rematch starts from a finished game');
    const seat = old.seatOf(token);
    if (seat === null) throw new CodedError('bad_token', 'this token holds no seat in that game');
    const name = old.holderName(seat) ?? `seat ${seat + 1}`;
    // In a cluster another instance may have started it: the store knows.
    const known = this.options.takeOver ? ((await this.store.get(id))?.rematch ?? null) : old.rematch;
    let room = known ? await this.rematchRoom(known, name, seat) : undefined;
    if (!room) {
      // Two players asking at once must get one rematch: the second waits for the first.
      const pending = this.rematching.get(old.id);
      if (pending)
        room = await pending.catch((e) => {
          throw e instanceof RematchElsewhereError ? new RematchElsewhereError(e.gameId, name, seat) : e;
        });
      else {
        const { seats, rules, clock, standIn, hints } = old.setup;
        const making = this.create({ seats, rules, clock, standIn, hints }, old.id).then(async (r) => {
          try {
            await old.setRematch(r.id);
            return r;
          } catch (e) {
            // Another instance started the rematch meanwhile: this one is dropped unplayed.
            if (!(e instanceof RematchTakenError)) throw e;
            await r.abandon('rematch started elsewhere');
            return (await this.rematchRoom(e.rematchId, name, seat)) as Room;
          }
        });
        this.rematching.set(old.id, making);
        try {
          room = await making;
        } finally {
          this.rematching.delete(old.id);
        }
      }
    }
    const joined = await room.join(name, seat, true);
    if ('error' in joined) throw new CodedError(joined.error, joined.message);
    return { room, seat: joined.seat, token: joined.token };
  }

  /** A rematch by id: here, or RematchElsewhereError when another instance plays it. */
  private async rematchRoom(id: string, name: string, seat: number): Promise<Room | undefined> {
    try {
      return await this.get(id);
    } catch (e) {
      if (e instanceof GameElsewhereError) throw new RematchElsewhereError(id, name, seat);
      throw e;
    }
  }

  /** Finished games from the store, most recent first, with their final scores. */
  async finished(query: ListFinishedQuery): Promise<{ games: FinishedGame[]; next: string | null }> {
    const page = await listFinished(this.store, query);
    // A game whose scores cannot be replayed is left out of its page, not the page.
    const games = await Promise.all(
      page.games.map((g) =>
        this.summarizeFinished(g).catch((e) => {
          if (e instanceof StorageError) throw e;
          return null;
        }),
      ),
    );
    return { games: games.filter((g) => g !== null), next: page.next };
  }

  activeCount(): number {
    let n = 0;
    for (const r of this.rooms.values()) if (r.status !== 'finished') n++;
    return n;
  }

  /** Ends expired games and lets finished ones nobody watches leave memory. */
  async sweep(now = Date.now()): Promise<void> {
    for (const room of [...this.rooms.values()]) {
      if (room.status === 'finished') {
        if (!room.watched) {
          this.rooms.delete(room.id);
          this.remember(room);
        }
        continue;
      }
      room.notePresence();
      const why = this.expired(room, now);
      if (why && (await room.abandon(why))) this.options.metrics.abandoned.inc({ why });
    }
  }

  /** One timer tick: sweeps overlap never (a slow store must not pile them up). */
  private sweepOnce(): void {
    if (this.sweeping) return;
    this.sweeping = true;
    this.sweep()
      .catch((err) => this.options.log.error({ err }, 'sweep failed'))
      .finally(() => {
        this.sweeping = false;
      });
  }

  private expired(room: Room, now: number): string | null {
    const idle = room.idleFor(now);
    const { expireOpenSeatSeconds, expireAwaySeconds, expireIdleSeconds } = this.expiry;
    if (room.status === 'waiting') return idle.activity >= expireOpenSeatSeconds * 1000 ? 'open_seat' : null;
    if (idle.people >= expireAwaySeconds * 1000) return 'away';
    return idle.activity >= expireIdleSeconds * 1000 ? 'idle' : null;
  }

  private remember(room: Room): void {
    this.finishedRooms.set(room.id, room);
    const limit = this.options.finishedCache ?? DEFAULTS.finishedCache;
    for (const id of this.finishedRooms.keys()) {
      if (this.finishedRooms.size <= limit) break;
      this.finishedRooms.delete(id);
    }
  }

  /** Shutdown, first step: bot searches in flight may finish and be stored, within `graceMs`. */
  async drain(graceMs: number): Promise<void> {
    await Promise.all([...this.rooms.values()].map((r) => r.drain()));
    const until = Date.now() + graceMs;
    while ([...this.rooms.values()].some((r) => r.busy) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const r of this.rooms.values()) r.close();
  }

  private deps(): RoomDeps {
    return { store: this.store, bots: this.options.bots, hints: this.options.hints, log: this.options.log, lost: (room) => this.rooms.get(room.id) === room && this.drop(room.id) };
  }

  private async summarizeFinished(g: FinishedEntry): Promise<FinishedGame> {
    const names = g.holders.map((h, i) => h?.name ?? `open seat ${i + 1}`);
    const scores = g.end.scores ?? (await this.replayScores(g));
    return {
      id: g.setup.id,
      createdAt: g.setup.createdAt,
      finishedAt: g.finishedAt,
      rules: g.setup.rules,
      players: g.setup.seats.map((s, i) => ({ seat: i, name: names[i], kind: s.kind, ...(s.level ? { level: s.level } : {}), score: scores[i] })),
      abandoned: g.end.abandoned,
    };
  }

  /** Scores of a game finished before the store kept them (one replay per listing). */
  private async replayScores(g: FinishedEntry): Promise<number[]> {
    const stored = (await this.store.get(g.setup.id)) as StoredGame;
    const record = recordOf(stored);
    const { scores } = replayRecord(record);
    return record.players.map((name) => scores[name]);
  }
}
