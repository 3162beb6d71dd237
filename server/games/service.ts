// All games of this instance: creation (with capacity checks), lookup, listing, recovery,
// rematches, and their lifecycle in memory: finished games leave it (a small cache serves
// recent ones), abandoned games expire and free their slot.

import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { normalizeRules } from '../../bot-engine/game.ts';
import { type GameRecord, replayRecord } from '../../bot-engine/record.ts';
import { type Rules, maxPlayers } from '../../bot-engine/rules.ts';
import { MAX_SEATS } from '../../bot-engine/state.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import { DEFAULTS } from '../config.ts';
import type { Metrics } from '../metrics.ts';
import { CodedError } from '../errors.ts';
import type { FinishedGame } from '../wire/api.ts';
import { type BotMover, Room, type RoomDeps } from './room.ts';
import { damageOf } from './integrity.ts';
import { type ExpirySettings, expiryReason } from './expiry.ts';
import { FinishedTable, type ReadableGame, recordOf, snapshotOf } from './records.ts';
import { FinishedGames } from './finished-games.ts';
import { finishedPlayers } from './view.ts';
import {
  type ClockSetup,
  createdAtMs,
  type DamagedGame,
  DamagedGameError,
  type TurnBasedPace,
  GameElsewhereError,
  type GameSetup,
  type GameStore,
  isDamaged,
  pageSize,
  RematchTakenError,
  type SeatSetup,
  type StoredGame,
} from './store.ts';
import { StorageError } from '../storage/errors.ts';
import { type FinishedEntry, type ListFinishedQuery, listFinished, setRematch, unfinishedGames } from './store-operations.ts';
import type { HintSearcher } from '../hints.ts';
import { waitUntil } from '../wait.ts';
import { QUIET_TURNS, type TurnNotifier } from './turn-events.ts';
import { sweepDeadlines } from './deadline-sweep.ts';

export interface CreateGameRequest {
  seats: SeatSetup[];
  rules?: Partial<Rules>;
  /** Turn clock; by default off when one person plays bots, on (DEFAULT_TURN_SECONDS) with more people. */
  clock?: Partial<ClockSetup>;
  standIn?: BotLevel;
  listed?: boolean;
  hints?: boolean;
  rated?: boolean;
  /** Turn-based; absent: live. */
  pace?: TurnBasedPace;
  /** The signed-in player making the game: the players it challenges by name are told who. */
  createdBy?: { id: string; name: string };
}

export const DEFAULT_TURN_SECONDS = 120;
/** A turn-based game's open seats wait this long for their players (a challenge is answered on
 * the next visit, days later), where a live game's wait the configured minutes. */
export const TURN_BASED_OPEN_SEAT_SECONDS = 14 * 86_400;
export const DEFAULT_GRACE_SECONDS = 60;
export const DEFAULT_STAND_IN: BotLevel = 'heuristic';

/** Refused for lack of capacity: the client should retry after `retryAfterSeconds`. */
export class OverloadError extends CodedError {
  override name = 'OverloadError';
  declare readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('overloaded', message, { retryAfterSeconds });
  }
}

export interface ServiceOptions {
  /** The game store, its writes watched by the caller (plugins/store.ts). */
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
  /** The store's last failed write while writes fail (storage/watched/games.ts), or null: no game
   * is created meanwhile. Absent: never known to fail. */
  storeFailing?: () => StorageError | null;
  /** Told of turns in turn-based games (notifications); default: nobody. */
  turns?: TurnNotifier;
  /** The time (ms since the epoch) the sweeps go by; default Date.now (tests inject one). */
  now?: () => number;
}

/** How a cluster member holds the turn-based games it loads on demand (cluster/lease-store.ts). */
export interface TurnBasedLeases {
  /** Takes the game's lease unless a live instance holds it: the game as stored, else undefined. */
  claim(id: string): Promise<StoredGame | undefined>;
  /** Gives the lease of a game that left memory back: the next instance reached claims it. */
  letGo(id: string): Promise<void>;
}

export class GameService {
  /** Unfinished games, and finished ones while someone still watches them. */
  private readonly rooms = new Map<string, Room>();
  /** Recently read finished games: a room while one was needed (it finished here, or connections
   * watched it), else the game as read. */
  private readonly finishedGames: FinishedGames<Room | FinishedTable>;
  private readonly options: ServiceOptions;
  private readonly store: GameStore;
  private readonly expiry: ExpirySettings;
  private readonly sweeper: NodeJS.Timeout;
  /** The sweep under way, if one is. */
  private sweeping: Promise<void> | null = null;
  /** The pool is warm: rooms loaded from now on move their bots at once. */
  private botsReady = false;
  /** Rematches being created (their game id), by the finished game they follow. */
  private readonly rematching = new Map<string, Promise<string>>();
  /** Games whose stored data does not parse or replay, with why: set aside, never served. */
  private readonly damaged = new Map<string, string>();
  private readonly setAsideListeners: ((id: string) => void)[] = [];
  private readonly finishedListeners: ((setup: GameSetup) => void)[] = [];
  /** A cluster member's leases (holdTurnBasedBy); null: one instance, every game is its own. */
  private leases: TurnBasedLeases | null = null;

  /** Who hears of turns; rooms and the sweep reach it through `turnEvents`, so a listener set
   * after rooms were made (`hearTurns`) is heard by them too. */
  private turnListener: TurnNotifier;
  private readonly turnEvents: TurnNotifier = {
    yourTurn: (event) => this.turnListener.yourTurn(event),
    reminder: (event) => this.turnListener.reminder(event),
    challenged: (event) => this.turnListener.challenged(event),
  };

  constructor(options: ServiceOptions) {
    this.options = options;
    this.turnListener = options.turns ?? QUIET_TURNS;
    this.store = options.store;
    this.expiry = options.expiry ?? DEFAULTS;
    this.finishedGames = new FinishedGames(options.finishedCache ?? DEFAULTS.finishedCache, (game) => game instanceof Room && game.watched);
    const shortest = Math.min(this.expiry.expireOpenSeatSeconds, this.expiry.expireAwaySeconds, this.expiry.expireIdleSeconds) * 1000;
    this.sweeper = setInterval(() => void this.sweepNow(), Math.min(30_000, Math.max(100, shortest / 4)));
    this.sweeper.unref();
    // Counted at each scrape: no per-move recount.
    options.metrics.sources.games = () => ({ active: this.activeCount(), inMemory: this.inMemory });
  }

  async create(request: CreateGameRequest, rematchOf?: string): Promise<Room> {
    // Bad input first, whatever the server's state. The schema has checked the rules' shape; how
    // many players they seat is the engine's answer (a rematch and any instance ask here too).
    const rules = normalizeRules(request.rules);
    const seats = maxPlayers(rules);
    if (request.seats.length > seats) throw new CodedError('bad_request', `these rules seat at most ${seats} players (${MAX_SEATS} with Inns & Cathedrals)`);
    const storage = this.options.storeFailing?.() ?? null;
    if (storage) throw new StorageError(storage.message, { kind: storage.kind });
    const busy = this.options.overloaded();
    if (busy) throw new OverloadError(busy, 5);
    if (this.activeCount() >= this.options.maxGames) throw new OverloadError(`this server holds its maximum of ${this.options.maxGames} games`, 30);
    const people = request.seats.filter((s) => s.kind === 'person').length;
    const setup: GameSetup = {
      id: randomBytes(12).toString('base64url'),
      createdAt: new Date().toISOString(),
      seed: randomBytes(16).toString('hex'),
      rules,
      seats: request.seats.map((s) => (s.kind === 'bot' ? { kind: s.kind, level: s.level } : { kind: s.kind, ...(s.player ? { player: { ...s.player } } : {}) })),
      clock: {
        turnSeconds: request.clock?.turnSeconds !== undefined ? request.clock.turnSeconds : people > 1 ? DEFAULT_TURN_SECONDS : null,
        graceSeconds: request.clock?.graceSeconds ?? DEFAULT_GRACE_SECONDS,
      },
      standIn: request.standIn ?? DEFAULT_STAND_IN,
      ...(rematchOf ? { rematchOf } : {}),
      ...(request.listed && !rematchOf ? { listed: true } : {}),
      ...(request.hints ? { hints: true } : {}),
      ...(request.rated ? { rated: true } : {}),
      ...(request.pace ? { pace: { kind: 'turnBased' as const, moveDays: request.pace.moveDays } } : {}),
    };
    // A turn-based game's clock is its days per move, not seconds (deadlines.ts).
    if (setup.pace) setup.clock = { turnSeconds: null, graceSeconds: setup.clock.graceSeconds };
    const room = await Room.create(setup, this.deps());
    this.rooms.set(room.id, room);
    // A rematch keeps its seats for the same players: nobody new is challenged.
    if (!rematchOf) this.tellChallenged(setup, request.createdBy);
    return room;
  }

  /** Each player the new game keeps a seat for is told (not its maker); a listener's fault is
   * logged: the game is made and stays. */
  private tellChallenged(setup: GameSetup, by: CreateGameRequest['createdBy']): void {
    const waits = setup.pace ? TURN_BASED_OPEN_SEAT_SECONDS : this.expiry.expireOpenSeatSeconds;
    const until = createdAtMs(setup) + waits * 1000;
    for (const seat of setup.seats) {
      if (!seat.player || seat.player.id === by?.id) continue;
      try {
        this.turnEvents.challenged({ playerId: seat.player.id, gameId: setup.id, by: by?.name ?? null, until });
      } catch (err) {
        this.options.log.error({ err, gameId: setup.id }, 'the challenge notifier failed');
      }
    }
  }

  /** A game to read: played here, or finished (read from the store once, no room built). An
   * unfinished turn-based game is loaded (loadTurnBased); any other not in memory is not this
   * instance's (one instance holds every game from restore(); in a cluster, the directory hands
   * one over with take()): GameElsewhereError. */
  get(id: string): Promise<Room | FinishedTable | undefined> {
    return this.load(id, (stored) => new FinishedTable(stored));
  }

  /** A game to connect to (play, watch, take a seat in): get(), with a room for a finished game. */
  async room(id: string): Promise<Room | undefined> {
    const game = await this.load(id, (stored) => Room.restore(stored, this.deps()));
    if (!(game instanceof FinishedTable)) return game;
    // A rematch being linked through the table: the room starts with the link.
    await this.rematching.get(id)?.catch(() => {});
    const raced = this.loaded(id);
    if (raced) return raced;
    // Read already (its record replays): the room starts from it.
    const room = Room.restore({ ...game.stored, rematch: game.rematch }, this.deps());
    this.finishedGames.add(room);
    return room;
  }

  /** A game in memory, or a finished one read from the store and made by `build`. */
  private async load(id: string, build: (stored: StoredGame) => Room | FinishedTable): Promise<Room | FinishedTable | undefined> {
    const held = this.rooms.get(id) ?? this.finishedGames.get(id);
    if (held) return held;
    const known = this.damaged.get(id);
    if (known !== undefined) return this.stillDamaged(id, known);
    const stored = await this.read(id);
    if (!stored) return undefined;
    // Another request may have loaded it while this one read the store.
    const raced = this.rooms.get(id) ?? this.finishedGames.get(id);
    if (raced) return raced;
    if (!stored.finished && stored.setup.pace) return this.loadTurnBased(stored);
    if (!stored.finished) throw new GameElsewhereError(`game ${id} is played on another instance`);
    const game = this.replayed(stored, build);
    this.finishedGames.add(game);
    return game;
  }

  /** A stored unfinished turn-based game opened or due: its room, in memory until it rests again
   * (sweep). In a cluster its lease is claimed first: GameElsewhereError while another instance
   * holds it. One that does not replay is set aside (DamagedGameError). */
  private async loadTurnBased(stored: StoredGame): Promise<Room> {
    const id = stored.setup.id;
    const claimed = this.leases ? await this.leases.claim(id) : stored;
    if (!claimed) throw new GameElsewhereError(`game ${id} is played on another instance`);
    // Another request here may have loaded it while the lease was claimed.
    const raced = this.rooms.get(id);
    if (raced) return raced;
    const room = this.rebuild(claimed);
    this.rooms.set(room.id, room);
    if (this.botsReady) room.resumeBots();
    return room;
  }

  /** A cluster member: each turn-based game it loads is held under its lease, claimed on loading
   * and given back when the game rests (a resting game has no owner). */
  holdTurnBasedBy(leases: TurnBasedLeases): void {
    this.leases = leases;
  }

  /** A room in memory here, for an unfinished or a finished game, or undefined; no store read. */
  loaded(id: string): Room | undefined {
    const game = this.rooms.get(id) ?? this.finishedGames.peek(id);
    return game instanceof Room ? game : undefined;
  }

  /** A stored game, as a watcher here would see it, for reading only (another instance plays
   * it); a damaged one is set aside (undefined). */
  snapshot(stored: StoredGame | DamagedGame): ReadableGame | undefined {
    return this.unlessDamaged(stored, (s) => this.replayed(s, snapshotOf));
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
    const live = this.rooms.get(id) ?? this.finishedGames.peek(id);
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

  /** Told of each game set aside (whoever hands games to this service must not hand it again). */
  onSetAside(listener: (id: string) => void): void {
    this.setAsideListeners.push(listener);
  }

  /** Told of each game whose end this instance stores (played out or abandoned). */
  onFinished(listener: (setup: GameSetup) => void): void {
    this.finishedListeners.push(listener);
  }

  /** Counts a damaged game, logs it once (one line, no stack), and tells the listeners. */
  private setAside(game: DamagedGame): void {
    if (this.damaged.has(game.id)) return;
    this.damaged.set(game.id, game.damaged);
    this.options.metrics.gamesDamaged.set(this.damaged.size);
    this.options.log.error({ gameId: game.id, reason: game.damaged }, 'stored game is damaged: set aside, its id answers game_damaged (docs/OPERATIONS.md: npm run games)');
    for (const listener of this.setAsideListeners) listener(game.id);
  }

  /** An unfinished game handed to this instance (its previous holder is gone): replayed from its
   * record; people reconnect with their seat tokens, bots move as soon as the pool is warm.
   * One that does not replay is set aside (DamagedGameError). */
  take(stored: StoredGame): Room {
    const held = this.rooms.get(stored.setup.id);
    if (held) return held;
    const room = this.rebuild(stored);
    this.rooms.set(room.id, room);
    room.log.info({ turn: room.turn }, 'game taken over from its previous owner');
    this.options.metrics.takeovers.inc();
    if (this.botsReady) room.resumeBots();
    return room;
  }

  /** take(), for games handed over in a batch: a damaged one is set aside (undefined). */
  adopt(stored: StoredGame | DamagedGame): Room | undefined {
    return this.unlessDamaged(stored, (s) => this.take(s));
  }

  /** `use(stored)`, or undefined for a game that is damaged (set aside). */
  private unlessDamaged<T>(stored: StoredGame | DamagedGame, use: (stored: StoredGame) => T): T | undefined {
    if (isDamaged(stored)) {
      this.setAside(stored);
      return undefined;
    }
    try {
      return use(stored);
    } catch (e) {
      if (e instanceof DamagedGameError) return undefined;
      throw e;
    }
  }

  /** Another instance plays the game now: its connections are sent away, the room stops. */
  drop(id: string): void {
    const room = this.rooms.get(id);
    if (!room) return;
    this.rooms.delete(id);
    room.log.warn('game lost to another instance: connections sent to reconnect');
    this.options.metrics.gamesLost.inc();
    room.moved();
  }

  /** Games in memory (unfinished, watched, cached): what must stay flat over months. */
  get inMemory(): number {
    return this.rooms.size + this.finishedGames.size;
  }

  /** Listed games here with an open seat, newest first (invite games are reached by their link only). */
  listedWaiting(limit = 50): Room[] {
    return [...this.rooms.values()]
      .filter((r) => r.status === 'waiting' && r.setup.listed)
      .reverse()
      .slice(0, limit);
  }

  /** Rebuilds every unfinished stored game (restart recovery), then ends those that expired: a
   * server restarted more often than its sweep interval (a crash loop) still ends them. Their bots
   * wait for resumeBots(). */
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
      // A seated turn-based game costs its row only: it loads when opened or due.
      if (stored.setup.pace && !stored.holders.includes(null)) continue;
      try {
        const room = this.rebuild(stored);
        this.rooms.set(room.id, room);
        n++;
      } catch (e) {
        if (!(e instanceof DamagedGameError)) throw e;
      }
    }
    if (n > 0) this.options.log.info({ games: n }, 'unfinished games restored from the store');
    await this.sweepNow();
    return n;
  }

  /** The pool is warm: restored games' bots may move. */
  resumeBots(): void {
    this.botsReady = true;
    for (const r of this.rooms.values()) r.resumeBots();
  }

  /** The same seats, rules and clock again. The first player to ask creates it; each person
   * takes their own seat in it (same seat, same name), wherever it is played: the answer says
   * which game, and as whom. The seat of the finished game is the token's, else the signed-in
   * player's (a seat taken on another device has no token in this browser). */
  async rematch(id: string, asker: { token?: string; playerId?: string }): Promise<{ gameId: string; name: string; seat: number }> {
    let old: Room | FinishedTable | undefined;
    try {
      old = await this.get(id);
    } catch (e) {
      if (e instanceof GameElsewhereError) throw new CodedError('not_finished', 'a rematch starts from a finished game');
      throw e;
    }
    if (!old) throw new CodedError('unknown_game', `no game ${JSON.stringify(id)}`);
    if (old.status !== 'finished') throw new CodedError('not_finished', 'a rematch starts from a finished game');
    const seat = asker.token !== undefined ? old.seatOf(asker.token) : asker.playerId ? old.seatOfPlayer(asker.playerId) : null;
    if (seat === null)
      throw new CodedError('bad_token', asker.token !== undefined ? 'this token holds no seat in that game' : 'give the seat token of the finished game (or sign in as the player who held the seat)');
    const name = old.holderName(seat) ?? `seat ${seat + 1}`;
    // Another instance sharing the store may have started it: the store knows. (Read again
    // after the store: another request here may have linked it meanwhile.)
    const stored = old.rematch ? null : ((await this.store.get(id))?.rematch ?? null);
    const known = old.rematch ?? stored;
    if (known) return { gameId: known, name, seat };
    // Two players asking at once must get one rematch: the second waits for the first.
    let making = this.rematching.get(old.id);
    if (!making) {
      const finished = old;
      const { seats, rules, clock, standIn, hints, rated, pace } = finished.setup;
      making = this.create({ seats, rules, clock, standIn, hints, rated, pace }, finished.id).then(async (r) => {
        try {
          await this.linkRematch(finished, r.id);
          return r.id;
        } catch (e) {
          // Another instance started the rematch meanwhile: this one is dropped unplayed.
          if (!(e instanceof RematchTakenError)) throw e;
          await r.abandon('rematch started elsewhere');
          return e.rematchId;
        }
      });
      this.rematching.set(old.id, making);
      void making.then(
        () => this.rematching.delete(finished.id),
        () => this.rematching.delete(finished.id),
      );
    }
    return { gameId: await making, name, seat };
  }

  /** Stores the rematch of a finished game: through its room (whose watchers see it), else as
   * read. RematchTakenError: another instance linked its own first. */
  private async linkRematch(finished: Room | FinishedTable, rematchId: string): Promise<void> {
    if (finished instanceof Room) return finished.setRematch(rematchId);
    // A room built for it meanwhile: its watchers see the link.
    const room = this.loaded(finished.id);
    if (room) return room.setRematch(rematchId);
    try {
      await setRematch(this.store, finished.id, rematchId);
      finished.rematch = rematchId;
    } catch (e) {
      if (e instanceof RematchTakenError) finished.rematch = e.rematchId;
      throw e;
    }
  }

  /** Finished games from the store, most recent first, with their final scores. */
  /** Damaged games are left out: those whose rows do not parse, those found damaged already, and
   * those whose scores cannot be replayed. They leave after the store's LIMIT, so what they took
   * is asked for again from where that page ended: a page is short only at the listing's end. */
  async finished(query: ListFinishedQuery): Promise<{ games: FinishedGame[]; next: string | null }> {
    const limit = pageSize({ ...query, finished: true });
    const games: FinishedGame[] = [];
    let before = query.before;
    let next: string | null;
    do {
      const page = await listFinished(this.store, { ...query, limit: limit - games.length, ...(before === undefined ? {} : { before }) });
      const listed = await Promise.all(page.games.filter((g) => !this.damaged.has(g.setup.id)).map((g) => this.listable(g)));
      for (const game of listed) if (game) games.push(game);
      next = page.next;
      before = next ?? undefined;
    } while (games.length < limit && next !== null);
    return { games, next };
  }

  /** The game as listed, or null when its scores cannot be replayed (it is left out). */
  private listable(g: FinishedEntry): Promise<FinishedGame | null> {
    return this.summarizeFinished(g).catch((e) => {
      if (e instanceof StorageError) throw e;
      return null;
    });
  }

  /** A player was deleted (their seats renamed, those kept for them released in the store): the
   * games held here show it too; a finished game read before is read again. */
  forgetPlayer(playerId: string, replacement: string): void {
    for (const room of this.rooms.values()) room.forgetPlayer(playerId, replacement);
    for (const game of this.finishedGames.all()) {
      if (game instanceof Room) game.forgetPlayer(playerId, replacement);
      else this.finishedGames.delete(game.id);
    }
  }

  /** Whether this instance plays the game and it is not finished (waiting or being played). */
  unfinished(id: string): boolean {
    const room = this.rooms.get(id);
    return room !== undefined && room.status !== 'finished';
  }

  activeCount(): number {
    let n = 0;
    for (const r of this.rooms.values()) if (r.status !== 'finished') n++;
    return n;
  }

  /** Ends expired games, lets finished ones nobody watches and resting turn-based ones leave
   * memory, and plays the turn-based deadlines that passed. */
  async sweep(now = this.now()): Promise<void> {
    for (const room of [...this.rooms.values()]) {
      if (room.status === 'finished') {
        if (!room.watched) {
          this.rooms.delete(room.id);
          this.finishedGames.add(room);
        }
        continue;
      }
      if (room.resting) {
        this.rooms.delete(room.id);
        room.close();
        await this.letGo(room.id);
        continue;
      }
      room.notePresence();
      const expiry = room.setup.pace ? { ...this.expiry, expireOpenSeatSeconds: TURN_BASED_OPEN_SEAT_SECONDS } : this.expiry;
      // A seated turn-based game never expires: its deadlines move it on.
      const why = room.setup.pace && room.status === 'playing' ? null : expiryReason(room.status, room.idleFor(now), expiry);
      if (why && (await room.abandon(why))) this.options.metrics.abandoned.inc({ why });
    }
    await this.sweepDeadlines(now);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** A resting game's lease (a cluster member's) given back; if that write fails, the lease is
   * no longer renewed and runs out instead. */
  private async letGo(id: string): Promise<void> {
    try {
      await this.leases?.letGo(id);
    } catch (err) {
      this.options.log.warn({ gameId: id, err: (err as Error).message }, 'the lease of a resting turn-based game could not be given back: it runs out instead');
    }
  }

  /** Plays or reminds the turn-based deadlines due by `now` (deadline-sweep.ts). */
  sweepDeadlines(now = this.now()): Promise<void> {
    return sweepDeadlines(
      {
        store: this.store,
        metrics: this.options.metrics,
        log: this.options.log,
        turnEvents: this.turnEvents,
        room: (id) => this.room(id),
        readable: async (id) => this.loaded(id) ?? (await this.peek(id)),
        isDamaged: (id) => this.damaged.has(id),
      },
      now,
    );
  }

  /** A sweep now (a timer tick, or at boot), or the one under way: sweeps never overlap (a slow
   * store must not pile them up), and a failed one is logged, not thrown. */
  sweepNow(): Promise<void> {
    this.sweeping ??= this.sweep()
      .catch((err) => this.options.log.error({ err }, 'sweep failed'))
      .finally(() => {
        this.sweeping = null;
      });
    return this.sweeping;
  }

  /** Shutdown, first step: bot searches in flight may finish and be stored, within `graceMs`. */
  async drain(graceMs: number): Promise<void> {
    await Promise.all([...this.rooms.values()].map((r) => r.drain()));
    await waitUntil(() => ![...this.rooms.values()].some((r) => r.busy), graceMs);
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const r of this.rooms.values()) r.close();
  }

  /** Turns in turn-based games are told to `notifier` from now on (the notifications, set up
   * after the games). */
  hearTurns(notifier: TurnNotifier): void {
    this.turnListener = notifier;
  }

  private deps(): RoomDeps {
    return {
      store: this.store,
      bots: this.options.bots,
      hints: this.options.hints,
      log: this.options.log,
      turns: this.turnEvents,
      lost: (room) => this.rooms.get(room.id) === room && this.drop(room.id),
      finished: (room) => {
        // A listener's fault is logged here: the game's end is stored and stays.
        for (const listener of this.finishedListeners) {
          try {
            listener(room.setup);
          } catch (e) {
            room.log.error({ err: (e as Error).message }, 'a listener of finished games failed');
          }
        }
      },
    };
  }

  private async summarizeFinished(g: FinishedEntry): Promise<FinishedGame> {
    const scores = g.end.scores ?? (await this.replayScores(g));
    return {
      id: g.setup.id,
      createdAt: g.setup.createdAt,
      finishedAt: g.finishedAt,
      rules: g.setup.rules,
      players: finishedPlayers(g.setup, g.holders, scores),
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
