// One game, authoritative: its state, who holds each seat, and everyone watching it. Every
// accepted move is stored before anyone hears of it; a room can be rebuilt from its stored record.
// Store writes are asynchronous: a room runs its writes one at a time (`serial`), so a second
// move is checked against the state the first one left, never against a state mid-write.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { type Move, newGame, playMove, tileName } from '../../bot-engine/game.ts';
import { type RecordMove, RECORD_FORMAT, type GameRecord, replayRecord } from '../../bot-engine/record.ts';
import { finalScoring, hideBag } from '../../bot-engine/rules.ts';
import { fnv1a, mixSeed } from '../../bot-engine/rng.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { BotAnswer } from '../bot-scheduler.ts';
import { HintBusyError, type HintSearcher } from '../hints.ts';
import { type GameEnd, GameElsewhereError, type GameSetup, type GameStore, OwnershipLostError, RematchTakenError, type SeatHolder, STORAGE_CAUSES, StorageError, type StoredGame } from './store.ts';
import { SeatClock } from './seat-clock.ts';
import type { GameStatus, GameView, LastMove, StandInReason } from '../wire/game.ts';
import { type SeatInfo, seatView } from './view.ts';
import { moveHistory } from './history.ts';
import { type ChatError, TableTalk } from './table-talk.ts';
import type { ChatMessage, QuickId } from '../wire/chat.ts';

export type { LastMove };

export interface Subscriber {
  seat: number | null;
  update(view: GameView, last: LastMove | null): void;
  /** A table-talk message for everyone connected to the game. */
  chat(message: ChatMessage): void;
  /** The game moved to another instance: this subscriber must reconnect there. */
  moved?(): void;
  /** Something the server does on its own for this game failed (it is tried again). */
  fault?(message: string): void;
}

export type MoveErrorCode = 'not_started' | 'game_over' | 'not_your_turn' | 'stale_turn' | 'illegal_move' | 'storage_unavailable' | 'hints_off' | 'hint_busy';
export interface MoveError {
  error: MoveErrorCode;
  message: string;
}

export interface BotMover {
  move(view: GameState, level: BotLevel, seed: number, log: Logger): Promise<BotAnswer>;
}

export interface RoomDeps {
  store: GameStore;
  bots: BotMover;
  /** Absent: no hints here (a room only read, a store-level test). */
  hints?: HintSearcher;
  log: Logger;
  /** The store refused a write: another instance owns the game now (a cluster). */
  lost?(room: Room): void;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** A bot move whose write failed is tried again after this long (the disk may have room again). */
export const STORE_RETRY_MS = 2000;
/** A bot turn that failed otherwise is tried again after STORE_RETRY_MS, doubling up to this. */
export const BOT_RETRY_MAX_MS = 60_000;

export interface HintAnswer {
  turn: number;
  move: Move;
}

/** One seat's hint search for one turn, shared by every connection that asks for it. */
interface HintSearch {
  turn: number;
  /** Set once the hint is counted: later asks are answered from it. */
  move: Move | null;
  waiters: { deliver: (hint: HintAnswer) => void; settle: (error: MoveError | null) => void; fail: (e: unknown) => void }[];
}
/** A game's "person last seen" is stored at most this often (on connects, leaves, and while
 * someone stays connected, at each expiry sweep): a restart loses at most this much of it. */
export const PERSON_SEEN_WRITE_MS = 5000;

export class Room {
  readonly id: string;
  readonly setup: GameSetup;
  readonly log: Logger;
  /** Replaced, never mutated, by a move: a move whose write fails leaves it as it was. */
  private current: GameState;
  private ended: GameEnd | null;
  private readonly holders: (SeatHolder | null)[];
  private readonly deps: RoomDeps;
  private readonly subscribers = new Set<Subscriber>();
  private readonly talk = new TableTalk();
  private readonly clock: SeatClock;
  private movesCount: number;
  private botPending = false;
  /** False until the pool is warm after a restart: restored games wait for real searches. */
  private botsEnabled: boolean;
  /** Set on shutdown: a search in flight may finish and be stored, no new one starts. */
  private draining = false;
  private closed = false;
  private lastMove: LastMove | null = null;
  /** Every move so far, for connections that join or come back mid-game. */
  private readonly moves: LastMove[];
  private rematchId: string | null;
  private readonly hints: number[];
  private readonly hintSearches = new Map<number, HintSearch>();
  /** The bot turn's retry after a failure (a write or otherwise); no bot turn starts meanwhile. */
  private storeRetry: NodeJS.Timeout | null = null;
  /** Bot turns failed in a row for a cause other than a full disk: sets the backoff. */
  private botFailures = 0;
  /** Logged once per streak of failed abandons (the sweep tries again). */
  private abandonFailing = false;
  /** Why the last write failed (disk, database…), for the player's message. */
  private unstored: StorageError | null = null;
  /** The tail of this room's write queue, and how many writes are queued or running. */
  private writes: Promise<unknown> = Promise.resolve();
  private writing = 0;
  /** For expiry (GameService.sweep): when anything last happened, and when a person last was here. */
  private lastActivityAt = Date.now();
  private lastPersonAt = Date.now();
  /** When `lastPersonAt` was last written to the store, and the throttled write waiting. */
  private personStoredAt = 0;
  private personWrite: NodeJS.Timeout | null = null;

  private constructor(stored: StoredGame, state: GameState, deps: RoomDeps, botsEnabled: boolean, moves: LastMove[]) {
    this.id = stored.setup.id;
    this.moves = moves;
    this.setup = stored.setup;
    this.holders = stored.holders;
    this.current = state;
    this.ended = stored.end;
    this.rematchId = stored.rematch;
    this.hints = stored.hints.slice();
    this.movesCount = stored.moves.length;
    this.deps = deps;
    this.botsEnabled = botsEnabled;
    this.log = deps.log.child({ gameId: this.id });
    this.clock = new SeatClock(stored.setup, {
      isPerson: (seat) => this.setup.seats[seat].kind === 'person',
      playing: () => this.status === 'playing',
      currentSeat: () => this.state.currentPlayer,
      onStandIn: (seat, reason) => this.guard('stand-in', () => this.standIn(seat, reason)),
    });
  }

  /** A new game, stored before it is returned. Bot seats are filled at once. */
  static async create(setup: GameSetup, deps: RoomDeps): Promise<Room> {
    const holders = setup.seats.map((s, i) => (s.kind === 'bot' ? { name: `${s.level} bot ${i + 1}`, tokenHash: null } : null));
    await deps.store.create(setup, holders);
    const state = newGame({ players: setup.seats.length, rules: setup.rules, seed: setup.seed });
    const room = new Room({ setup, holders, moves: [], finished: false, end: null, rematch: null, hints: [] }, state, deps, true, []);
    // Seats as words: a nested `level` would read as pino's own level field to log tools.
    room.log.info({ seats: setup.seats.map((s) => (s.kind === 'bot' ? `${s.level} bot` : 'person')), rules: setup.rules, clock: setup.clock }, 'game created');
    return room;
  }

  /** Rebuilds a stored game by replaying its record. Bots wait for `resumeBots()`; people are
   * away until they reconnect (their grace period starts now). */
  static restore(stored: StoredGame, deps: RoomDeps): Room {
    const record = Room.recordOf(stored);
    const replay = replayRecord(record);
    const room = new Room(stored, replay.state, deps, false, moveHistory(record, replay));
    // Expiry counts on from the stored activity: a restart neither extends nor cuts a game's time.
    room.lastActivityAt = stored.lastActivityAt ?? room.lastActivityAt;
    room.lastPersonAt = stored.lastPersonAt ?? room.lastPersonAt;
    if (room.status === 'playing') {
      for (let seat = 0; seat < stored.setup.seats.length; seat++) room.clock.presence(seat, false);
      room.clock.armTurn();
    }
    return room;
  }

  /** The record a stored game replays from (open seats get placeholder names). */
  static recordOf(stored: StoredGame): GameRecord {
    // Record names must be distinct: a placeholder never takes a name a person chose.
    const taken = new Set(stored.holders.map((h) => h?.name));
    const players = stored.holders.map((h, i) => {
      if (h) return h.name;
      let name = `open seat ${i + 1}`;
      while (taken.has(name)) name += '*';
      taken.add(name);
      return name;
    });
    return {
      format: RECORD_FORMAT,
      rules: stored.setup.rules,
      players,
      seed: stored.setup.seed,
      moves: stored.moves,
      final: stored.finished,
      ...(stored.end?.abandoned ? { abandoned: true } : {}),
    };
  }

  get state(): GameState {
    return this.current;
  }

  get abandoned(): boolean {
    return this.ended?.abandoned ?? false;
  }

  get status(): GameStatus {
    if (this.state.finished) return 'finished';
    return this.holders.every((h) => h !== null) ? 'playing' : 'waiting';
  }

  get turn(): number {
    return this.movesCount;
  }

  get openSeats(): number[] {
    return this.holders.flatMap((h, i) => (h === null ? [i] : []));
  }

  get rematch(): string | null {
    return this.rematchId;
  }

  /** Takes an open person seat; returns the seat token (shown once, stored only as a hash).
   * A rematch's seats are kept for the previous game's players (`forRematch`). */
  join(name: string, seat?: number, forRematch = false): Promise<{ seat: number; token: string } | { error: 'no_seat' | 'name_taken'; message: string }> {
    return this.serial(() => this.joinNow(name, seat, forRematch));
  }

  private async joinNow(name: string, seat: number | undefined, forRematch: boolean): Promise<{ seat: number; token: string } | { error: 'no_seat' | 'name_taken'; message: string }> {
    if (this.setup.rematchOf && !forRematch) return { error: 'no_seat', message: "the seats of a rematch are kept for the previous game's players" };
    // Asking twice for one's rematch seat (another tab, a refresh) re-issues its token.
    if (forRematch && seat !== undefined && this.holders[seat]?.name === name) return { seat, token: await this.issueToken(seat, name) };
    const open = this.openSeats;
    const chosen = seat ?? open[0];
    if (chosen === undefined || !open.includes(chosen)) return { error: 'no_seat', message: seat === undefined ? 'no open seat is left' : `seat ${seat} is not open` };
    if (this.holders.some((h) => h?.name === name)) return { error: 'name_taken', message: `the name ${JSON.stringify(name)} is taken in this game` };
    const token = await this.issueToken(chosen, name);
    // The store wrote both with the seat: a person taking a seat was seen.
    this.lastActivityAt = this.lastPersonAt = this.personStoredAt = Date.now();
    this.log.info({ seat: chosen, name }, 'seat taken');
    if (this.status === 'playing') {
      this.log.info('game started');
      for (let s = 0; s < this.holders.length; s++) if (this.setup.seats[s].kind === 'person') this.clock.presence(s, this.connected(s));
      this.clock.armTurn();
    }
    this.changed();
    return { seat: chosen, token };
  }

  private async issueToken(seat: number, name: string): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    const holder = { name, tokenHash: hashToken(token).toString('hex') };
    try {
      await this.deps.store.takeSeat(this.id, seat, holder);
    } catch (e) {
      if (!(e instanceof OwnershipLostError)) throw e;
      this.deps.lost?.(this);
      throw new GameElsewhereError(`game ${this.id} moved to another instance: retry`);
    }
    this.holders[seat] = holder;
    return token;
  }

  /** The seat a token holds, or null. */
  seatOf(token: string): number | null {
    const hash = hashToken(token);
    for (let i = 0; i < this.holders.length; i++) {
      const h = this.holders[i]?.tokenHash;
      if (h && timingSafeEqual(Buffer.from(h, 'hex'), hash)) return i;
    }
    return null;
  }

  holderName(seat: number): string | null {
    return this.holders[seat]?.name ?? null;
  }

  /** A watcher gets the state; only a seat's presence changing is news for everyone else. */
  subscribe(sub: Subscriber): void {
    this.subscribers.add(sub);
    if (sub.seat === null) {
      sub.update(this.view(null), this.lastMove);
      return;
    }
    this.seen();
    // A person coming back takes the seat back from the stand-in.
    this.clock.presence(sub.seat, true);
    if (!this.claim(sub.seat)) this.changed();
  }

  unsubscribe(sub: Subscriber): void {
    if (!this.subscribers.delete(sub) || sub.seat === null) return;
    this.seen();
    this.clock.presence(sub.seat, this.connected(sub.seat));
    this.broadcast();
  }

  /** Someone (a player or a watcher) is connected. */
  get watched(): boolean {
    return this.subscribers.size > 0;
  }

  get watchers(): number {
    let n = 0;
    for (const s of this.subscribers) if (s.seat === null) n++;
    return n;
  }

  /** Some person holding a seat is connected now. */
  get peoplePresent(): boolean {
    for (const s of this.subscribers) if (s.seat !== null) return true;
    return false;
  }

  /** Milliseconds since anything happened (a seat taken, a move), and since a person was last
   * connected (0 while one is). */
  idleFor(now = Date.now()): { activity: number; people: number } {
    return { activity: now - this.lastActivityAt, people: this.peoplePresent ? 0 : now - this.lastPersonAt };
  }

  /** A seat holder is here (or just left): remembered now, stored throttled (PERSON_SEEN_WRITE_MS). */
  private seen(): void {
    this.lastPersonAt = Date.now();
    if (this.personWrite || this.draining || this.closed) return;
    const wait = this.personStoredAt + PERSON_SEEN_WRITE_MS - this.lastPersonAt;
    if (wait <= 0) return void this.storeSeen();
    this.personWrite = setTimeout(() => {
      this.personWrite = null;
      void this.storeSeen();
    }, wait);
    this.personWrite.unref();
  }

  /** The expiry sweep: people connected now are seen now. */
  notePresence(): void {
    if (this.peoplePresent) this.seen();
  }

  /** Stores when a person was last seen (now, while one is connected). Never throws: a failed
   * write is logged by the store's watcher, and the next one carries the newer time. */
  private async storeSeen(): Promise<void> {
    if (this.status === 'finished') return;
    if (this.peoplePresent) this.lastPersonAt = Date.now();
    this.personStoredAt = Date.now();
    try {
      await this.deps.store.markSeen(this.id, this.lastPersonAt);
    } catch (err) {
      if (!(err instanceof StorageError)) this.log.warn({ err: (err as Error).message }, 'when a person was last seen could not be stored');
    }
  }

  /** Takes a seat back from its stand-in bot; false when no bot stands in for it. */
  claim(seat: number): boolean {
    if (this.clock.reason(seat) === null) return false;
    this.clock.release(seat);
    this.log.info({ seat }, 'seat taken back from the stand-in bot');
    this.clock.armTurn();
    this.changed();
    return true;
  }

  view(seat: number | null): GameView {
    return seatView(
      {
        gameId: this.id,
        status: this.status,
        rules: this.setup.rules,
        turn: this.movesCount,
        state: this.state,
        seats: this.seatInfo(),
        botThinking: this.botPending,
        clock: { turnSeconds: this.setup.clock.turnSeconds, deadline: this.clock.deadline },
        rematch: this.rematchId,
        abandoned: this.abandoned,
        hintsOn: this.setup.hints === true,
        hints: this.hints,
      },
      seat,
    );
  }

  get last(): LastMove | null {
    return this.lastMove;
  }

  /** A person's move (taking the seat back if a stand-in held it). The state is untouched
   * unless it returns a LastMove. */
  play(seat: number, move: Move, turn: number): Promise<LastMove | MoveError> {
    return this.serial(() => this.playNow(seat, move, turn));
  }

  private async playNow(seat: number, move: Move, turn: number): Promise<LastMove | MoveError> {
    const problem = this.turnProblem(seat, turn);
    if (problem) return problem;
    // Moving is taking the seat back; a stand-in search in flight is then ignored.
    this.claim(seat);
    return this.apply(seat, move);
  }

  /** The strongest move (the expert's) for the person to place now, in a game with hints. One
   * search per seat and turn, however many connections ask: a repeat joins the search in flight
   * or is answered from it. `deliver` gets the hint before the state frame that counts it (once
   * per turn). Resolves with an error if refused or the turn moved on meanwhile. The search runs
   * outside the room's write queue: a move sent meanwhile is not held up by it. */
  hint(seat: number, turn: number, deliver: (hint: HintAnswer) => void): Promise<MoveError | null> {
    const hints = this.deps.hints;
    if (!this.setup.hints || !hints) return Promise.resolve({ error: 'hints_off', message: 'this game was created without hints' });
    const problem = this.turnProblem(seat, turn);
    if (problem) return Promise.resolve(problem);
    let search = this.hintSearches.get(seat);
    if (search?.turn === turn) {
      hints.shared();
      if (search.move) {
        deliver({ turn, move: search.move });
        return Promise.resolve(null);
      }
    } else search = this.startHint(hints, seat, turn);
    const joined = search;
    return new Promise((settle, fail) => joined.waiters.push({ deliver, settle, fail }));
  }

  private startHint(hints: HintSearcher, seat: number, turn: number): HintSearch {
    const search: HintSearch = { turn, move: null, waiters: [] };
    this.hintSearches.set(seat, search);
    const view = hideBag(this.state.clone());
    const seed = mixSeed(fnv1a(this.setup.seed), turn, seat, 0x4917);
    const answered = (error: MoveError | null) => {
      const waiters = search.waiters.splice(0);
      if (error) {
        this.forgetHint(seat, search);
        for (const w of waiters) w.settle(error);
        return;
      }
      const hint = { turn, move: search.move as Move };
      for (const w of waiters) w.deliver(hint);
      for (const w of waiters) w.settle(null);
      this.broadcast();
    };
    hints
      .search(view, seed, this.log)
      .then((move) => this.serial(() => this.countHint(seat, search, move)))
      .then(answered, (e: unknown) => {
        if (e instanceof HintBusyError) return answered({ error: 'hint_busy', message: `${e.message}: bot moves come first; ask again in a few seconds` });
        this.forgetHint(seat, search);
        for (const w of search.waiters.splice(0)) w.fail(e);
      })
      .catch((err: unknown) => this.log.error({ err }, 'hint delivery failed'));
    return search;
  }

  /** Counts the hint once (stored) and keeps it for the turn's repeats. */
  private async countHint(seat: number, search: HintSearch, move: Move): Promise<MoveError | null> {
    const late = this.turnProblem(seat, search.turn);
    if (late) return late;
    if (!(await this.commit((store) => store.recordHint(this.id, seat))))
      return { error: 'storage_unavailable', message: `the hint could not be counted (${this.unstoredReason()}); try again in a few seconds` };
    this.hints[seat] = (this.hints[seat] ?? 0) + 1;
    search.move = move;
    return null;
  }

  private forgetHint(seat: number, search: HintSearch): void {
    if (this.hintSearches.get(seat) === search) this.hintSearches.delete(seat);
  }

  /** Why `seat` may not act on `turn` now, or null. */
  private turnProblem(seat: number, turn: number): MoveError | null {
    const status = this.status;
    if (status === 'finished') return { error: 'game_over', message: 'the game is over' };
    if (status === 'waiting') return { error: 'not_started', message: 'the game starts when every seat is taken' };
    // A move on an old view is stale whoever plays now: a repeated click never plays twice.
    if (turn !== this.movesCount) return { error: 'stale_turn', message: `turn is ${this.movesCount}, the frame quoted ${turn}` };
    if (this.setup.seats[seat].kind !== 'person' || seat !== this.state.currentPlayer) return { error: 'not_your_turn', message: `it is seat ${this.state.currentPlayer}'s turn` };
    return null;
  }

  private async apply(seat: number, move: Move, bot?: BotAnswer): Promise<LastMove | MoveError> {
    const tile = tileName(this.state.currentTile);
    const turn = this.movesCount;
    const next = this.state.clone();
    const outcome = playMove(next, move);
    if ('error' in outcome) return { error: 'illegal_move', message: outcome.error };
    const played = outcome.move;
    const recorded: RecordMove[] = [{ tile, ...played }, ...outcome.discarded.map((d) => ({ discard: d }))];
    const end = outcome.finished ? this.endOf(next, false) : null;
    // Stored before anything changes: a game is its record, and a failed write changes nothing.
    if (!(await this.commit((store) => store.appendMoves(this.id, recorded, end))))
      return { error: 'storage_unavailable', message: `the move could not be stored (${this.unstoredReason()}); nothing changed: try again in a few seconds` };
    this.current = next;
    this.ended = end;
    this.movesCount += recorded.length;
    this.lastActivityAt = Date.now();
    const last: LastMove = { turn, seat, tile, move: played, events: outcome.events, discarded: outcome.discarded };
    if (bot) last.bot = { source: bot.source, level: bot.level, elapsedMs: Math.round(bot.elapsedMs * 1000) / 1000, ...(this.setup.seats[seat].kind === 'person' ? { standIn: true } : {}) };
    this.lastMove = last;
    this.moves.push(last);
    if (end) this.log.info({ scores: end.scores }, 'game finished');
    this.clock.armTurn();
    this.changed();
    return last;
  }

  /** The level a bot plays this seat at, or null when a person plays it now. A stand-in plays
   * only for the people still here: when everyone has left, the game waits (and may expire). */
  private botLevel(seat: number): BotLevel | null {
    const s = this.setup.seats[seat];
    if (s.kind === 'bot') return s.level ?? null;
    return this.clock.reason(seat) === null || !this.peoplePresent ? null : this.setup.standIn;
  }

  private endOf(state: GameState, abandoned: boolean): GameEnd {
    return { abandoned, scores: this.setup.seats.map((_, p) => state.score(p)) };
  }

  private unstoredReason(): string {
    return this.unstored?.reason ?? STORAGE_CAUSES.disk;
  }

  /** Runs a store write; false (logged by the store's watcher) when it could not commit. */
  private async commit(write: (store: GameStore) => Promise<void>): Promise<boolean> {
    try {
      await write(this.deps.store);
      return true;
    } catch (e) {
      if (e instanceof StorageError) {
        this.unstored = e;
        return false;
      }
      if (e instanceof OwnershipLostError) {
        this.log.warn({ err: e.message }, 'write fenced off: another instance owns this game now');
        this.deps.lost?.(this);
        return false;
      }
      throw e;
    }
  }

  /** Ends the game as it stands (it expired): followers are scored as at the end of a game, the
   * result is stored as abandoned. False when the store could not write it (tried again later). */
  abandon(why: string): Promise<boolean> {
    return this.serial(() => this.abandonNow(why)).then(
      (done) => {
        this.abandonFailing = false;
        return done;
      },
      (err: unknown) => {
        // Not the disk's fault: one log line per streak, and the sweep tries again.
        if (!this.abandonFailing) this.log.error({ err, why }, 'abandoning the game failed: tried again at the next sweep');
        this.abandonFailing = true;
        return false;
      },
    );
  }

  private async abandonNow(why: string): Promise<boolean> {
    if (this.status === 'finished') return true;
    const next = this.state.clone();
    finalScoring(next);
    const end = this.endOf(next, true);
    if (!(await this.commit((store) => store.appendMoves(this.id, [], end)))) return false;
    this.current = next;
    this.ended = end;
    this.clock.stop();
    this.log.info({ why, scores: end.scores }, 'game abandoned');
    this.broadcast();
    return true;
  }

  private standIn(seat: number, reason: StandInReason): void {
    this.log.info({ seat, reason, botLevel: this.setup.standIn }, reason === 'clock' ? 'turn clock ran out: a bot plays the seat' : 'person away past the grace period: a bot plays the seat');
    this.changed();
  }

  /** Lets restored games' bots move (the pool is warm). */
  resumeBots(): void {
    this.botsEnabled = true;
    this.maybeBotTurn();
  }

  private changed(): void {
    this.broadcast();
    this.maybeBotTurn();
  }

  private maybeBotTurn(): void {
    if (this.closed || this.draining || !this.botsEnabled || this.botPending || this.storeRetry || this.status !== 'playing') return;
    const seat = this.state.currentPlayer;
    const level = this.botLevel(seat);
    if (!level) return;
    this.botPending = true;
    const turn = this.movesCount;
    const seed = mixSeed(fnv1a(this.setup.seed), turn, seat);
    // The bot sees what a player may know: the bag's contents, not its order.
    const view = hideBag(this.state.clone());
    this.deps.bots
      .move(view, level, seed, this.log)
      .finally(() => {
        this.botPending = false;
      })
      .then((answer) => this.serial(() => this.playBot(seat, turn, answer)))
      .catch((e: unknown) => this.botFailed(e));
    this.broadcast();
  }

  private async playBot(seat: number, turn: number, answer: BotAnswer): Promise<void> {
    // The person may have taken the seat back (and moved) while the bot thought.
    if (this.closed || this.status !== 'playing' || this.movesCount !== turn || this.botLevel(seat) === null) {
      this.broadcast();
      this.maybeBotTurn();
      return;
    }
    const result = await this.apply(seat, answer.move, answer);
    if (!('error' in result)) {
      if (this.botFailures > 0) this.log.info({ failures: this.botFailures }, 'bot move stored after failures: the game goes on');
      this.botFailures = 0;
      return;
    }
    if (this.closed) return;
    if (result.error !== 'storage_unavailable') throw new Error(`bot move rejected: ${result.message}`);
    // The bot does not advance until its move is stored; the same move is tried again.
    this.retryBot(STORE_RETRY_MS, () => this.serial(() => this.playBot(seat, turn, answer)));
    this.broadcast();
  }

  /** The one boundary of a bot turn (its search, its write, its retry): a failure that is not
   * the disk's is logged once per streak with the game id, the players are told, and the turn is
   * tried again with backoff. Never a silent stall, never an unhandled rejection. */
  private botFailed(e: unknown): void {
    if (this.closed) return;
    this.botFailures++;
    const delayMs = Math.min(BOT_RETRY_MAX_MS, STORE_RETRY_MS * 2 ** (this.botFailures - 1));
    if (this.botFailures === 1) this.log.error({ err: e, retryInMs: delayMs }, 'bot turn failed: tried again with backoff');
    else this.log.debug({ failures: this.botFailures, retryInMs: delayMs }, 'bot turn failed again');
    for (const sub of this.subscribers) sub.fault?.(`the server could not complete the bot's move; it tries again in ${Math.round(delayMs / 1000)} s`);
    this.retryBot(delayMs, async () => this.maybeBotTurn());
    this.broadcast();
  }

  private retryBot(delayMs: number, retry: () => Promise<void>): void {
    if (this.storeRetry) clearTimeout(this.storeRetry);
    this.storeRetry = setTimeout(() => {
      this.storeRetry = null;
      retry().catch((e: unknown) => this.botFailed(e));
    }, delayMs);
    this.storeRetry.unref();
  }

  /** The boundary of a timer's synchronous work (the turn clock, the grace period). */
  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log.error({ err, what }, 'game timer failed');
    }
  }

  private connected(seat: number): boolean {
    for (const s of this.subscribers) if (s.seat === seat) return true;
    return false;
  }

  private seatInfo(): SeatInfo[] {
    return this.setup.seats.map((s, i) => ({
      name: this.holders[i]?.name ?? null,
      kind: s.kind,
      ...(s.level ? { level: s.level } : {}),
      connected: s.kind === 'bot' || this.connected(i),
      standIn: this.clock.reason(i),
    }));
  }

  private broadcast(): void {
    const views = new Map<number | null, GameView>();
    for (const sub of this.subscribers) {
      const v = views.get(sub.seat) ?? this.view(sub.seat);
      views.set(sub.seat, v);
      sub.update(v, this.lastMove);
    }
  }

  /** A bot search or a store write is in flight. */
  get busy(): boolean {
    return this.botPending || this.writing > 0;
  }

  /** Runs `fn` after every write queued before it has settled: one write at a time per room.
   * Its failure is the caller's to handle (the returned promise); the queue goes on. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    this.writing++;
    const run = this.writes.then(fn).finally(() => {
      this.writing--;
    });
    this.writes = run.catch(() => {});
    return run;
  }

  /** Links the rematch started from this finished game (stored), and tells everyone watching. */
  setRematch(id: string): Promise<void> {
    return this.serial(async () => {
      try {
        await this.deps.store.setRematch(this.id, id);
        this.rematchId = id;
      } catch (e) {
        // Another instance started it first: that one is the rematch.
        if (!(e instanceof RematchTakenError)) throw e;
        this.rematchId = e.rematchId;
        throw e;
      } finally {
        this.broadcast();
      }
    });
  }

  /** A seated player's table talk, sent to every connection (players and watchers alike). */
  say(seat: number, content: { quick?: QuickId; text?: string }): ChatError | null {
    const message = this.talk.say(seat, this.holders[seat]?.name ?? `seat ${seat + 1}`, content);
    if ('error' in message) return message;
    for (const sub of this.subscribers) sub.chat(message);
    return null;
  }

  /** The last messages of table talk (in memory only), oldest first. */
  recentChat(): ChatMessage[] {
    return this.talk.recent();
  }

  /** Every move so far, as the live frames showed it (bot timings only for moves made since
   * this server started: the record does not keep them). */
  history(): LastMove[] {
    return this.moves.slice();
  }

  /** The game's record (replayable with `npm run replay`). */
  async record(): Promise<GameRecord> {
    const stored = await this.deps.store.get(this.id);
    if (!stored) throw new Error(`game ${this.id} is not in the store`);
    return Room.recordOf(stored);
  }

  /** Lets a bot search in flight finish (its move is stored) but starts no new one. People
   * connected now were seen until now: stored, so their time away counts from the shutdown. */
  drain(): Promise<void> {
    this.draining = true;
    this.clock.stop();
    if (this.personWrite) clearTimeout(this.personWrite);
    this.personWrite = null;
    return this.peoplePresent || this.lastPersonAt > this.personStoredAt ? this.storeSeen() : Promise.resolve();
  }

  /** Another instance owns the game now: everyone connected is sent there, and the room stops. */
  moved(): void {
    for (const sub of this.subscribers) sub.moved?.();
    this.close();
  }

  /** Stops scheduling bot turns and timers; state stays as stored. */
  close(): void {
    this.closed = true;
    this.clock.stop();
    if (this.storeRetry) clearTimeout(this.storeRetry);
    this.storeRetry = null;
    if (this.personWrite) clearTimeout(this.personWrite);
    this.personWrite = null;
    this.subscribers.clear();
  }
}
