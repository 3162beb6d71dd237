// One game, authoritative: its state, who holds each seat, and everyone watching it. Every
// accepted move is stored before anyone hears of it; a room can be rebuilt from its stored record.
// Store writes are asynchronous: a room runs its writes one at a time (`serial`), so a second
// move is checked against the state the first one left, never against a state mid-write.
// A room is the I/O around the table: its write queue, store calls, subscribers, the wiring of
// the stand-in clock, and bot dispatch. What it decides with is plain data in its own modules: the
// rules (table.ts), the seats (seats.ts), expiry (expiry.ts), hint sharing (hint-searches.ts) and
// table talk (table-talk.ts).

import type { Logger } from 'pino';
import { type Move, newGame } from '../../bot-engine/game.ts';
import { replayRecord } from '../../bot-engine/record.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { BotAnswer } from './bot-scheduler.ts';
import { HintBusyError, type HintSearcher } from '../hints.ts';
import { markSeen, recordHint, setRematch, takeSeat } from './store-operations.ts';
import { type GameEnd, GameElsewhereError, type GameSetup, type GameStore, OwnershipLostError, RematchTakenError, type StoredGame } from './store.ts';
import { STORAGE_CAUSES, StorageError } from '../storage/errors.ts';
import { SeatClock } from './seat-clock.ts';
import type { GameStatus, GameView, LastMove, StandInReason } from '../wire/game.ts';
import { seatView, ViewFrames, type ViewInput, viewInputOf } from './view.ts';
import { moveHistory } from './history.ts';
import { HeldState } from './state-stock.ts';
import { type ChatError, TableTalk } from './table-talk.ts';
import { type HintAnswer, HintSearches } from './hint-searches.ts';
import type { ChatMessage, QuickId } from '../wire/chat.ts';
import { initialHolders, issueToken, type JoinRefusal, Seats } from './seats.ts';
import { type Leaver, ranksOf } from '../ratings/model.ts';
import { recordOf } from './records.ts';
import { Activity, type Idle } from './expiry.ts';
import { type Applied, abandonAt, appliedOf, applyMove, botLevel, botSeed, hintSeed, type MoveError, tableStatus, turnProblem } from './table.ts';

export type { LastMove };
export type { MoveError, MoveErrorCode } from './table.ts';

export interface Subscriber {
  seat: number | null;
  /** The game changed: its frames for this subscriber's view, each serialised once for every
   * subscriber that sees the same view. */
  update(frames: ViewFrames): void;
  /** A table-talk message for everyone connected to the game. */
  chat(message: ChatMessage): void;
  /** The game moved to another instance: this subscriber must reconnect there. */
  moved?(): void;
  /** Something the server does on its own for this game failed (it is tried again). */
  fault?(message: string): void;
}

export interface BotMover {
  /** The bot's move on `state`, which it must not change (the room's own, never mutated). */
  move(state: GameState, level: BotLevel, seed: number, log: Logger): Promise<BotAnswer>;
}

export interface RoomDeps {
  store: GameStore;
  bots: BotMover;
  /** Absent: no hints here (a room only read, a store-level test). */
  hints?: HintSearcher;
  log: Logger;
  /** The store refused a write: another instance owns the game now (a cluster). */
  lost?(room: Room): void;
  /** The game's end is stored (played out or abandoned). */
  finished?(room: Room): void;
}

/** A bot move whose write failed is tried again after this long (the disk may have room again). */
const STORE_RETRY_MS = 2000;
/** A bot turn that failed otherwise is tried again after STORE_RETRY_MS, doubling up to this. */
const BOT_RETRY_MAX_MS = 60_000;

export class Room {
  readonly id: string;
  readonly setup: GameSetup;
  readonly log: Logger;
  /** Replaced, never mutated, by a move: a move whose write fails leaves it as it was. */
  private readonly held: HeldState;
  private ended: GameEnd | null;
  private readonly seats: Seats;
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
  /** Broadcasts so far (a `delta` frame's `seq`), and the tiles on the board at the last one. */
  private frameSeq = 0;
  private boardAtBroadcast: number;
  /** `botPending` at the last broadcast: what views show. A search ends a while before its move
   * is stored and broadcast; a view built meanwhile (a `sync`) must still be the one at `frameSeq`. */
  private botShown = false;
  /** Every move so far, for connections that join or come back mid-game. */
  private readonly moves: LastMove[];
  private rematchId: string | null;
  private readonly hints: number[];
  private readonly hintSearches: HintSearches;
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
  private readonly activity: Activity;
  /** The throttled write of "person last seen" waiting (PERSON_SEEN_WRITE_MS). */
  private personWrite: NodeJS.Timeout | null = null;

  private constructor(stored: StoredGame, state: GameState, deps: RoomDeps, botsEnabled: boolean, moves: LastMove[]) {
    this.id = stored.setup.id;
    this.moves = moves;
    this.setup = stored.setup;
    this.seats = new Seats(stored.holders);
    this.held = new HeldState(state);
    this.boardAtBroadcast = state.placed;
    this.ended = stored.end;
    this.rematchId = stored.rematch;
    this.hints = stored.hints.slice();
    this.movesCount = stored.moves.length;
    this.activity = new Activity(Date.now(), stored);
    this.deps = deps;
    this.botsEnabled = botsEnabled;
    this.log = deps.log.child({ gameId: this.id });
    this.hintSearches = new HintSearches(() => this.broadcast(), this.log);
    this.clock = new SeatClock(stored.setup, {
      isPerson: (seat) => this.setup.seats[seat].kind === 'person',
      playing: () => this.status === 'playing',
      currentSeat: () => this.state.currentPlayer,
      onStandIn: (seat, reason) => this.guard('stand-in', () => this.standIn(seat, reason)),
    });
  }

  /** A new game, stored before it is returned. Bot seats are filled at once. */
  static async create(setup: GameSetup, deps: RoomDeps): Promise<Room> {
    const holders = initialHolders(setup);
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
    const record = recordOf(stored);
    const replay = replayRecord(record);
    const room = new Room(stored, replay.state, deps, false, moveHistory(record, replay));
    if (room.status === 'playing') {
      for (let seat = 0; seat < stored.setup.seats.length; seat++) room.clock.presence(seat, false);
      room.clock.armTurn();
    }
    return room;
  }

  get state(): GameState {
    return this.held.current;
  }

  get abandoned(): boolean {
    return this.ended?.abandoned ?? false;
  }

  get status(): GameStatus {
    return tableStatus(this.state, this.seats.full);
  }

  get turn(): number {
    return this.movesCount;
  }

  get openSeats(): number[] {
    return this.seats.open;
  }

  get rematch(): string | null {
    return this.rematchId;
  }

  /** Takes an open person seat; returns the seat token (shown once, stored only as a hash).
   * A rematch's seats are kept for the previous game's players (`forRematch`). */
  join(name: string, seat?: number, forRematch = false, playerId?: string): Promise<{ seat: number; token: string } | JoinRefusal> {
    return this.serial(() => this.joinNow(name, seat, forRematch, playerId));
  }

  private async joinNow(name: string, seat: number | undefined, forRematch: boolean, playerId: string | undefined): Promise<{ seat: number; token: string } | JoinRefusal> {
    if (this.setup.rated && !playerId) return { error: 'sign_in_required', message: 'this game is rated: its seats are for players (start a session with POST /api/session first)' };
    const place = this.seats.placeFor(name, seat, this.setup.rematchOf, forRematch);
    if ('error' in place) return place;
    const chosen = place.seat;
    const token = await this.takeSeat(chosen, name, playerId);
    if (place.again) return { seat: chosen, token };
    this.activity.seated(Date.now());
    this.log.info({ seat: chosen, name }, 'seat taken');
    if (this.status === 'playing') {
      this.log.info('game started');
      for (let s = 0; s < this.seats.count; s++) if (this.setup.seats[s].kind === 'person') this.clock.presence(s, this.connected(s));
      this.clock.armTurn();
    }
    this.changed();
    return { seat: chosen, token };
  }

  /** Stores a new holder for `seat`; returns its token. */
  private async takeSeat(seat: number, name: string, playerId: string | undefined): Promise<string> {
    const { token, holder } = issueToken(name, playerId);
    try {
      await takeSeat(this.deps.store, this.id, seat, holder);
    } catch (e) {
      if (!(e instanceof OwnershipLostError)) throw e;
      this.deps.lost?.(this);
      throw new GameElsewhereError(`game ${this.id} moved to another instance: retry`);
    }
    this.seats.set(seat, holder);
    return token;
  }

  /** The seat a token holds, or null. */
  seatOf(token: string): number | null {
    return this.seats.seatOf(token);
  }

  /** A deleted player (the store has renamed their seats already): the room shows the same. */
  forgetPlayer(playerId: string, replacement: string): void {
    if (this.seats.forget(playerId, replacement)) this.broadcast();
  }

  /** The seat a signed-in player holds, or null. */
  seatOfPlayer(playerId: string): number | null {
    return this.seats.seatOfPlayer(playerId);
  }

  holderName(seat: number): string | null {
    return this.seats.name(seat);
  }

  /** A watcher gets the state; only a seat's presence changing is news for everyone else. */
  subscribe(sub: Subscriber): void {
    this.subscribers.add(sub);
    if (sub.seat === null) {
      sub.update(this.frames(null));
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
  idleFor(now = Date.now()): Idle {
    return this.activity.idleFor(now, this.peoplePresent);
  }

  /** A seat holder is here (or just left): remembered now, stored throttled (PERSON_SEEN_WRITE_MS). */
  private seen(): void {
    const wait = this.activity.seen(Date.now());
    if (this.personWrite || this.draining || this.closed) return;
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
    const lastSeen = this.activity.storing(Date.now(), this.peoplePresent);
    try {
      await markSeen(this.deps.store, this.id, lastSeen);
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
    return seatView(this.viewInput(), seat);
  }

  /** The frames of `seat`'s view as it is now, outside a broadcast (a new watcher, a `sync`). */
  frames(seat: number | null): ViewFrames {
    return new ViewFrames(this.viewInput(), seat, this.lastMove, this.frameSeq, this.boardAtBroadcast);
  }

  private viewInput(): ViewInput {
    return viewInputOf({
      setup: this.setup,
      state: this.state,
      status: this.status,
      turn: this.movesCount,
      name: (i) => this.seats.name(i),
      playerId: (i) => this.seats.playerId(i),
      connected: (i) => this.connected(i),
      standIn: (i) => this.clock.reason(i),
      botThinking: this.botShown,
      deadline: this.clock.deadline,
      rematch: this.rematchId,
      abandoned: this.abandoned,
      hints: this.hints,
    });
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
    return this.apply(applyMove(this.setup, this.state, this.movesCount, seat, move));
  }

  /** The strongest move (the expert's) for the person to place now, in a game with hints, shared
   * by every connection that asks (hint-searches.ts). `deliver` gets the hint before the state
   * frame that counts it (once per turn). Resolves with an error if refused or the turn moved on
   * meanwhile. The search runs outside the room's write queue: a move sent meanwhile is not held
   * up by it. */
  hint(seat: number, turn: number, deliver: (hint: HintAnswer) => void): Promise<MoveError | null> {
    const hints = this.deps.hints;
    if (!this.setup.hints || !hints) return Promise.resolve({ error: 'hints_off', message: 'this game was created without hints' });
    const problem = this.turnProblem(seat, turn);
    if (problem) return Promise.resolve(problem);
    if (this.hintSearches.has(seat, turn)) hints.shared();
    return this.hintSearches.ask(seat, turn, deliver, () => this.findHint(hints, seat, turn));
  }

  /** Searches the hint on the state as it is now, then counts it (stored) if the turn is still
   * the seat's. */
  private async findHint(hints: HintSearcher, seat: number, turn: number): Promise<Move | MoveError> {
    try {
      const lent = this.held.lend();
      const move = await hints.search(lent.state, hintSeed(this.setup, turn, seat), this.log).finally(lent.release);
      return await this.serial(() => this.countHint(seat, turn, move));
    } catch (e) {
      if (e instanceof HintBusyError) return { error: 'hint_busy', message: `${e.message}: bot moves come first; ask again in a few seconds` };
      throw e;
    }
  }

  /** Counts the hint once (stored): the move, or why it no longer counts. */
  private async countHint(seat: number, turn: number, move: Move): Promise<Move | MoveError> {
    const late = this.turnProblem(seat, turn);
    if (late) return late;
    if (!(await this.commit((store) => recordHint(store, this.id, seat))))
      return { error: 'storage_unavailable', message: `the hint could not be counted (${this.unstoredReason()}); try again in a few seconds` };
    this.hints[seat] = (this.hints[seat] ?? 0) + 1;
    return move;
  }

  /** Why `seat` may not act on `turn` now, or null. */
  private turnProblem(seat: number, turn: number): MoveError | null {
    return turnProblem({ setup: this.setup, state: this.state, turn: this.movesCount, seated: this.seats.full }, seat, turn);
  }

  /** Stores an accepted move, then makes it the game's: nothing changes if the write fails. */
  private async apply(applied: Applied | MoveError): Promise<LastMove | MoveError> {
    if ('error' in applied) return applied;
    const { next, recorded, last } = applied;
    const end = applied.end && this.withResult(applied.end, false);
    // Stored before anything changes: a game is its record, and a failed write changes nothing.
    if (!(await this.commit((store) => store.appendMoves(this.id, recorded, end))))
      return { error: 'storage_unavailable', message: `the move could not be stored (${this.unstoredReason()}); nothing changed: try again in a few seconds` };
    this.held.replace(next);
    this.ended = end;
    this.movesCount += recorded.length;
    this.activity.moved(Date.now());
    this.lastMove = last;
    this.moves.push(last);
    if (end) {
      this.log.info({ scores: end.scores }, 'game finished');
      this.deps.finished?.(this);
    }
    this.clock.armTurn();
    this.changed();
    return last;
  }

  /** The level a bot plays this seat at now, or null when a person plays it. */
  private botLevel(seat: number): BotLevel | null {
    return botLevel(this.setup, seat, this.clock.reason(seat), this.peoplePresent);
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
    const { next, end: asItStands } = abandonAt(this.setup, this.state);
    const end = this.withResult(asItStands, true);
    if (!(await this.commit((store) => store.appendMoves(this.id, [], end)))) return false;
    this.held.replace(next);
    this.ended = end;
    this.clock.stop();
    this.log.info({ why, scores: end.scores }, 'game abandoned');
    this.deps.finished?.(this);
    this.broadcast();
    return true;
  }

  /** A rated game's end carries its result, for the store to move ratings with it. Leavers place
   * last, the first to leave lowest: people a stand-in plays for because they were away past the
   * grace period (they left when their last connection closed) and, when the game expires, the
   * person whose turn it was (when they left, or now if still connected). A game never fully
   * seated moves no rating. */
  private withResult(end: GameEnd, expired: boolean): GameEnd {
    const players = this.setup.rated ? this.seats.players : null;
    if (!players || !end.scores) return end;
    const now = Date.now();
    const person = (seat: number) => this.setup.seats[seat].kind === 'person';
    const leaver = (seat: number): Leaver => ({ seat, at: this.clock.leftAt(seat) ?? now });
    const leavers = players.flatMap((_, seat) => (person(seat) && this.clock.reason(seat) === 'away' ? [leaver(seat)] : []));
    const onTurn = this.state.currentPlayer;
    if (expired && person(onTurn) && !leavers.some((l) => l.seat === onTurn)) leavers.push(leaver(onTurn));
    return { ...end, rated: { players, ranks: ranksOf(end.scores, leavers) } };
  }

  private standIn(seat: number, reason: StandInReason): void {
    this.log.info({ seat, reason, botLevel: this.setup.standIn }, reason === 'clock' ? 'turn clock ran out: a bot plays the seat' : 'person away past the grace period: a bot plays the seat');
    this.changed();
  }

  /** Lets restored games' bots move (the pool is warm). */
  resumeBots(): void {
    this.botsEnabled = true;
    if (this.maybeBotTurn()) this.broadcast();
  }

  /** One frame per change: a bot turn it starts is in that frame (`botThinking`), not in a second one. */
  private changed(): void {
    this.maybeBotTurn();
    this.broadcast();
  }

  /** Starts the bot's search if a bot is to move; true if it did (the caller broadcasts). */
  private maybeBotTurn(): boolean {
    if (this.closed || this.draining || !this.botsEnabled || this.botPending || this.storeRetry || this.status !== 'playing') return false;
    const seat = this.state.currentPlayer;
    const level = this.botLevel(seat);
    if (!level) return false;
    this.botPending = true;
    const turn = this.movesCount;
    // The bot sees what a player may know (the bag's contents, not its order): the search hides
    // the order on its own copy.
    const { state: from, release } = this.held.lend();
    this.deps.bots
      .move(from, level, botSeed(this.setup, turn, seat), this.log)
      .finally(() => {
        release();
        this.botPending = false;
      })
      .then((answer) => this.serial(() => this.playBot(seat, turn, from, answer)))
      .catch((e: unknown) => this.botFailed(e));
    return true;
  }

  private async playBot(seat: number, turn: number, from: GameState, answer: BotAnswer): Promise<void> {
    // The person may have taken the seat back (and moved) while the bot thought.
    if (this.closed || this.status !== 'playing' || this.movesCount !== turn || this.botLevel(seat) === null) {
      this.changed();
      return;
    }
    // The bot's move was checked by playing it on its own copy of `from`: used as it is.
    const applied =
      answer.played && from === this.state
        ? appliedOf(this.setup, from, answer.played.next, answer.played.outcome, turn, seat, answer)
        : applyMove(this.setup, this.state, turn, seat, answer.move, answer);
    const result = await this.apply(applied);
    if (!('error' in result)) {
      if (this.botFailures > 0) this.log.info({ failures: this.botFailures }, 'bot move stored after failures: the game goes on');
      this.botFailures = 0;
      return;
    }
    if (this.closed) return;
    if (result.error !== 'storage_unavailable') throw new Error(`bot move rejected: ${result.message}`);
    // The bot does not advance until its move is stored; the same move is tried again.
    this.retryBot(STORE_RETRY_MS, () => this.serial(() => this.playBot(seat, turn, from, answer)));
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
    this.retryBot(delayMs, async () => {
      if (this.maybeBotTurn()) this.broadcast();
    });
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

  /** Each distinct view is built and serialised once, however many connections show it. */
  private broadcast(): void {
    this.frameSeq++;
    const from = this.boardAtBroadcast;
    this.boardAtBroadcast = this.state.placed;
    this.botShown = this.botPending;
    if (this.subscribers.size === 0) return;
    const input = this.viewInput();
    const bySeat = new Map<number | null, ViewFrames>();
    for (const sub of this.subscribers) {
      let frames = bySeat.get(sub.seat);
      if (frames === undefined) {
        frames = new ViewFrames(input, sub.seat, this.lastMove, this.frameSeq, from);
        bySeat.set(sub.seat, frames);
      }
      sub.update(frames);
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
        await setRematch(this.deps.store, this.id, id);
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
    const message = this.talk.say(seat, this.seats.name(seat) ?? `seat ${seat + 1}`, content);
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

  /** Lets a bot search in flight finish (its move is stored) but starts no new one. People
   * connected now were seen until now: stored, so their time away counts from the shutdown. */
  drain(): Promise<void> {
    this.draining = true;
    this.clock.stop();
    if (this.personWrite) clearTimeout(this.personWrite);
    this.personWrite = null;
    return this.peoplePresent || this.activity.unstored ? this.storeSeen() : Promise.resolve();
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
