// A room runs one game's table: it checks each move by the rules, stores it, and only then makes
// it the game's and sends everyone connected one frame for the change.
// The rest is called from here: the table as it stands (live-table.ts), the rules (table.ts), the
// write queue, the connections (audience.ts), the stand-in clock, the turn-based pace (turn-pace.ts),
// bot turns, hints and expiry.

import type { Logger } from 'pino';
import { type Move, newGame } from '../../bot-engine/game.ts';
import { replayRecord } from '../../bot-engine/record.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { HintSearcher } from '../hints.ts';
import { markSeen, setRematch } from './store-operations.ts';
import { seatPerson } from './seating.ts';
import { type GameEnd, type GameSetup, type GameStore, RematchTakenError, type StoredGame } from './store.ts';
import type { TurnNotifier } from './turn-events.ts';
import { TurnPace } from './turn-pace.ts';
import { SeatClock, type SeatClockHooks } from './seat-clock.ts';
import type { GameView, LastMove } from '../wire/game.ts';
import { seatView, type ViewFrames, type ViewInput, viewInputOf } from './view.ts';
import { moveHistory } from './history.ts';
import type { ChatError } from './table-talk.ts';
import { type HintAnswer, TableHints } from './hint-searches.ts';
import type { ChatMessage, QuickId } from '../wire/chat.ts';
import { initialHolders, type JoinRefusal } from './seats.ts';
import { LiveTable } from './live-table.ts';
import { recordOf } from './records.ts';
import { Activity, type Idle } from './expiry.ts';
import { type Applied, abandonAt, applyMove, botLevel, type MoveError } from './table.ts';
import { Audience, type Subscriber } from './audience.ts';
import { type BotMover, type BotTable, type BotTurn, BotTurns } from './bot-turns.ts';
import { WriteQueue } from './write-queue.ts';
import { withRatedResult } from './rated-end.ts';

export type { BotMover, Subscriber };

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
  /** Turn-based games: told when the turn passes to a signed-in person. */
  turns?: TurnNotifier;
}

export class Room extends LiveTable {
  readonly log: Logger;
  private readonly deps: RoomDeps;
  private readonly writes: WriteQueue;
  private readonly audience: Audience;
  private readonly clock: SeatClock;
  private readonly bots: BotTurns;
  private readonly hints: TableHints;
  /** For expiry (GameService.sweep): when anything last happened, and when a person last was here. */
  private readonly activity: Activity;
  /** The bot's search at the last broadcast, as views show it: a `sync` between a search's end
   * and its move's broadcast must still get the view at the current `seq`. */
  private botShown = false;
  /** Turn-based: deadlines, missed turns and drops, and whose turn the notifier hears of. */
  readonly pace: TurnPace;

  private constructor(stored: StoredGame, state: GameState, deps: RoomDeps, botsEnabled: boolean, moves: LastMove[]) {
    super(stored, state, moves);
    this.deps = deps;
    this.log = deps.log.child({ gameId: this.id });
    this.audience = new Audience(state.placed);
    this.writes = new WriteQueue(deps.store, this.log, () => this.deps.lost?.(this));
    const lend = () => this.held.lend();
    const table: BotTable = { botTurn: () => this.botTurn(), lend, apply: (a) => this.apply(a), broadcast: () => this.broadcast(), fault: (m) => this.audience.fault(m) };
    this.bots = new BotTurns(this.setup, deps.bots, table, this.writes, this.log, botsEnabled);
    const problem = (seat: number, turn: number) => this.turnProblem(seat, turn);
    this.hints = new TableHints(this.setup, stored.hints, deps.hints, { problem, lend }, this.writes, () => this.broadcast(), this.log);
    const peoplePresent = () => this.audience.peoplePresent;
    this.activity = new Activity(Date.now(), stored, { store: (at) => markSeen(deps.store, this.id, at), peoplePresent, finished: () => this.status === 'finished', log: this.log });
    const isPerson = (seat: number) => this.setup.seats[seat].kind === 'person';
    const clock: SeatClockHooks = { isPerson, playing: () => this.status === 'playing', currentSeat: () => this.state.currentPlayer, onStandIn: () => this.changed() };
    this.clock = new SeatClock(stored.setup, clock, this.log);
    const paced = { table: this, lastActivity: () => this.activity.lastActivity, clock: this.clock, writes: this.writes, log: this.log, turns: deps.turns };
    this.pace = new TurnPace(stored, { ...paced, changed: () => this.changed() });
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
    if (room.status === 'playing') room.clock.start(() => false);
    return room;
  }

  /** Takes an open person seat; returns the seat token (shown once, stored only as a hash).
   * A rematch's seats are kept for the previous game's players (`forRematch`). */
  join(name: string, seat?: number, forRematch = false, playerId?: string): Promise<{ seat: number; token: string } | JoinRefusal> {
    return this.writes.run(() => this.joinNow(name, seat, forRematch, playerId));
  }

  private async joinNow(name: string, seat: number | undefined, forRematch: boolean, playerId: string | undefined): Promise<{ seat: number; token: string } | JoinRefusal> {
    const seating = { setup: this.setup, seats: this.seats, store: this.deps.store, lost: () => this.deps.lost?.(this) };
    const taken = await seatPerson(seating, name, seat, forRematch, playerId);
    if ('error' in taken) return taken;
    const { seat: chosen, token } = taken;
    if (taken.again) return { seat: chosen, token };
    this.activity.seated(Date.now());
    this.log.info({ seat: chosen, name }, 'seat taken');
    if (this.status === 'playing') {
      this.log.info('game started');
      this.clock.start((s) => this.audience.connected(s));
      this.pace.tellTurn();
    }
    this.changed();
    return { seat: chosen, token };
  }

  /** A deleted player (the store has renamed their seats and released those kept for them
   * already): the room shows the same, and anyone may take a released seat. */
  forgetPlayer(playerId: string, replacement: string): void {
    const released = this.forgetKept(playerId);
    const renamed = this.seats.forget(playerId, replacement);
    if (released || renamed) this.broadcast();
  }

  /** A watcher gets the state; only a seat's presence changing is news for everyone else. */
  subscribe(sub: Subscriber): void {
    this.audience.add(sub);
    if (sub.seat === null) return sub.update(this.frames(null));
    this.activity.personSeen();
    // A person coming back takes the seat back from the stand-in.
    this.clock.presence(sub.seat, true);
    if (!this.claim(sub.seat)) this.changed();
  }

  unsubscribe(sub: Subscriber): void {
    if (!this.audience.remove(sub) || sub.seat === null) return;
    this.activity.personSeen();
    this.clock.presence(sub.seat, this.audience.connected(sub.seat));
    this.broadcast();
  }

  /** Someone (a player or a watcher) is connected. */
  get watched(): boolean {
    return this.audience.watched;
  }

  get watchers(): number {
    return this.audience.watchers;
  }

  /** Milliseconds since anything happened (a seat taken, a move), and since a person was last
   * connected (0 while one is). */
  idleFor(now = Date.now()): Idle {
    return this.activity.idleFor(now, this.audience.peoplePresent);
  }

  /** The expiry sweep: people connected now are seen now. */
  notePresence(): void {
    if (this.audience.peoplePresent) this.activity.personSeen();
  }

  /** Takes a seat back from its stand-in bot; false when no bot stands in for it. */
  claim(seat: number): boolean {
    if (!this.clock.reclaim(seat)) return false;
    this.changed();
    return true;
  }

  view(seat: number | null): GameView {
    return seatView(this.viewInput(), seat);
  }

  /** The frames of `seat`'s view as it is now, outside a broadcast (a new watcher, a `sync`). */
  frames(seat: number | null): ViewFrames {
    return this.audience.frames(this.viewInput(), seat, this.lastMove);
  }

  private viewInput(): ViewInput {
    return viewInputOf({
      ...this.shown(),
      connected: (i) => this.audience.connected(i),
      standIn: (i) => this.clock.reason(i),
      botThinking: this.botShown,
      deadline: this.pace.deadline,
      hints: this.hints.counts,
    });
  }

  /** A person's move (taking the seat back if a stand-in held it). The state is untouched
   * unless it returns a LastMove. */
  play(seat: number, move: Move, turn: number): Promise<LastMove | MoveError> {
    return this.writes.run(() => this.playNow(seat, move, turn));
  }

  private async playNow(seat: number, move: Move, turn: number): Promise<LastMove | MoveError> {
    const problem = this.turnProblem(seat, turn) ?? this.pace.dropped(seat);
    if (problem) return problem;
    // Moving is taking the seat back (a stand-in search in flight is then ignored), shown in the
    // move's own frame; a move refused still took it back, and that frame shows it.
    const reclaimed = this.clock.reclaim(seat);
    const result = await this.apply(applyMove(this.setup, this.state, this.turn, seat, move));
    if (reclaimed && 'error' in result) this.changed();
    return result;
  }

  /** The expert's move for the person to place now, shared by every connection that asks. */
  hint(seat: number, turn: number, deliver: (hint: HintAnswer) => void): Promise<MoveError | null> {
    return this.hints.ask(seat, turn, deliver);
  }

  /** The bot (or stand-in) to move now, or null when a person plays or the game is not played. */
  private botTurn(): BotTurn | null {
    if (this.status !== 'playing') return null;
    const seat = this.state.currentPlayer;
    const level = botLevel(this.setup, seat, this.clock.reason(seat), this.audience.peoplePresent);
    return level && { seat, level, turn: this.turn, state: this.state };
  }

  /** Turn-based: nothing happens here until a person moves or a deadline passes (no bot to move,
   * nobody connected, no write in flight), so the room may leave memory. */
  get resting(): boolean {
    if (!this.setup.pace || this.status !== 'playing' || this.watched || this.busy) return false;
    return this.botTurn() === null;
  }

  /** Stores an accepted move, then makes it the game's: nothing changes if the write fails. */
  private async apply(applied: Applied | MoveError): Promise<LastMove | MoveError> {
    if ('error' in applied) return applied;
    const end = applied.end && this.withResult(applied.end, false);
    // Stored before anything changes: a game is its record, and a failed write changes nothing.
    if (!(await this.writes.commit((store) => store.appendMoves(this.id, applied.recorded, end))))
      return { error: 'storage_unavailable', message: `the move could not be stored (${this.writes.unstoredReason}); nothing changed: try again in a few seconds` };
    this.took(applied, end);
    this.activity.moved(Date.now());
    if (end) {
      this.log.info({ scores: end.scores }, 'game finished');
      this.deps.finished?.(this);
    }
    this.clock.moved(applied.last.seat);
    this.clock.armTurn();
    this.pace.tellTurn();
    this.changed();
    return applied.last;
  }

  /** Ends the game as it stands (it expired): followers are scored as at the end of a game, the
   * result is stored as abandoned. False when the store could not write it (tried again later). */
  abandon(why: string): Promise<boolean> {
    return this.activity.abandoning(why, () => this.writes.run(() => this.abandonNow(why)));
  }

  private async abandonNow(why: string): Promise<boolean> {
    if (this.status === 'finished') return true;
    const { next, end: asItStands } = abandonAt(this.setup, this.state);
    const end = this.withResult(asItStands, true);
    if (!(await this.writes.commit((store) => store.appendMoves(this.id, [], end)))) return false;
    this.endedAs(next, end);
    this.clock.stop();
    this.log.info({ why, scores: end.scores }, 'game abandoned');
    this.deps.finished?.(this);
    this.broadcast();
    return true;
  }

  private withResult(end: GameEnd, expired: boolean): GameEnd {
    return withRatedResult(this.setup, end, this.clock, { players: this.seats.players, onTurn: this.state.currentPlayer, expired, now: Date.now() });
  }

  /** Lets restored games' bots move (the pool is warm). */
  resumeBots(): void {
    this.bots.resume();
  }

  /** One frame per change: a bot turn it starts is in that frame (`botThinking`), not in a second one. */
  private changed(): void {
    this.bots.start();
    this.broadcast();
  }

  private broadcast(): void {
    this.botShown = this.bots.pending;
    this.audience.broadcast(this.state.placed, this.lastMove, () => this.viewInput());
  }

  /** A bot search or a store write is in flight. */
  get busy(): boolean {
    return this.bots.pending || this.writes.busy;
  }

  /** Links the rematch started from this finished game (stored), and tells everyone watching. */
  setRematch(id: string): Promise<void> {
    return this.writes.run(async () => {
      try {
        await setRematch(this.deps.store, this.id, id);
        this.rematchId = id;
      } catch (e) {
        // Another instance started it first: that one is the rematch.
        if (e instanceof RematchTakenError) this.rematchId = e.rematchId;
        throw e;
      } finally {
        this.broadcast();
      }
    });
  }

  /** A seated player's table talk, sent to every connection (players and watchers alike). */
  say(seat: number, content: { quick?: QuickId; text?: string }): ChatError | null {
    return this.audience.say(seat, this.seats.name(seat) ?? `seat ${seat + 1}`, content);
  }

  /** The last messages of table talk (in memory only), oldest first. */
  recentChat(): ChatMessage[] {
    return this.audience.recentChat();
  }

  /** Lets a bot search in flight finish (its move is stored) but starts no new one. People
   * connected now were seen until now: stored, so their time away counts from the shutdown. */
  drain(): Promise<void> {
    this.bots.drain();
    this.clock.stop();
    return this.activity.flush();
  }

  /** Another instance owns the game now: everyone connected is sent there, and the room stops. */
  moved(): void {
    this.audience.moved();
    this.close();
  }

  /** Stops scheduling bot turns and timers; state stays as stored. */
  close(): void {
    this.bots.close();
    this.clock.stop();
    this.activity.stop();
    this.audience.clear();
  }
}
