// A table's hints: one search per seat and turn, however many connections ask (a repeat joins
// the search in flight, or is answered from the hint once it is counted), run on the state lent
// by the room, then counted (stored) in the room's write queue. `HintSearches` is the sharing
// alone, with the search passed in; `TableHints` is what a room asks.

import type { Logger } from 'pino';
import type { Move } from '../../bot-engine/game.ts';
import type { GameState } from '../../bot-engine/state.ts';
import { HintBusyError, type HintSearcher } from '../hints.ts';
import { recordHint } from './store-operations.ts';
import type { GameSetup } from './store.ts';
import { hintSeed, type MoveError } from './table.ts';
import type { WriteQueue } from './write-queue.ts';

export interface HintAnswer {
  turn: number;
  move: Move;
}

interface Waiter {
  deliver: (hint: HintAnswer) => void;
  settle: (error: MoveError | null) => void;
  fail: (e: unknown) => void;
}

interface Search {
  turn: number;
  /** Set once the hint is counted: later asks are answered from it. */
  move: Move | null;
  waiters: Waiter[];
}

export class HintSearches {
  private readonly bySeat = new Map<number, Search>();
  /** Runs once per counted hint, after its askers got it: the state frame that counts it. */
  private readonly counted: () => void;
  private readonly log: Logger;

  constructor(counted: () => void, log: Logger) {
    this.counted = counted;
    this.log = log;
  }

  /** An ask for `seat`'s hint on `turn` would share a search already started. */
  has(seat: number, turn: number): boolean {
    return this.bySeat.get(seat)?.turn === turn;
  }

  /** `seat`'s hint for `turn`: from the counted hint, from the search in flight, or from `find`
   * (the search, then the count: the move, or why not), started now. `deliver` gets the hint;
   * resolves null then, or with why not (the search is then forgotten: a later ask starts
   * another); rejects with what `find` threw. */
  ask(seat: number, turn: number, deliver: (hint: HintAnswer) => void, find: () => Promise<Move | MoveError>): Promise<MoveError | null> {
    let search = this.bySeat.get(seat);
    if (search?.turn === turn && search.move) {
      deliver({ turn, move: search.move });
      return Promise.resolve(null);
    }
    if (search?.turn !== turn) search = this.start(seat, turn, find);
    const joined = search;
    return new Promise((settle, fail) => joined.waiters.push({ deliver, settle, fail }));
  }

  private start(seat: number, turn: number, find: () => Promise<Move | MoveError>): Search {
    const search: Search = { turn, move: null, waiters: [] };
    this.bySeat.set(seat, search);
    const answered = (found: Move | MoveError) => {
      const waiters = search.waiters.splice(0);
      if ('error' in found) {
        this.forget(seat, search);
        for (const w of waiters) w.settle(found);
        return;
      }
      search.move = found;
      const hint = { turn, move: found };
      for (const w of waiters) w.deliver(hint);
      for (const w of waiters) w.settle(null);
      this.counted();
    };
    find()
      .then(answered, (e: unknown) => {
        this.forget(seat, search);
        for (const w of search.waiters.splice(0)) w.fail(e);
      })
      .catch((err: unknown) => this.log.error({ err }, 'hint delivery failed'));
    return search;
  }

  private forget(seat: number, search: Search): void {
    if (this.bySeat.get(seat) === search) this.bySeat.delete(seat);
  }
}

/** What a table's hints need of its room. */
export interface HintTable {
  /** Why `seat` may not act on `turn` now, or null. */
  problem(seat: number, turn: number): MoveError | null;
  /** The state now, read by the search until `release` (never mutated meanwhile). */
  lend(): { state: GameState; release: () => void };
}

export class TableHints {
  private readonly setup: GameSetup;
  /** Absent: no hints here (a room only read, a store-level test). */
  private readonly searcher: HintSearcher | undefined;
  private readonly table: HintTable;
  private readonly writes: WriteQueue;
  private readonly searches: HintSearches;
  private readonly log: Logger;
  /** Hints counted so far, by seat. */
  readonly counts: number[];

  /** `counted` sends the state frame that counts a hint. */
  constructor(setup: GameSetup, stored: readonly number[], searcher: HintSearcher | undefined, table: HintTable, writes: WriteQueue, counted: () => void, log: Logger) {
    this.setup = setup;
    this.counts = stored.slice();
    this.searcher = searcher;
    this.table = table;
    this.writes = writes;
    this.log = log;
    this.searches = new HintSearches(counted, log);
  }

  /** The strongest move (the expert's) for the person to place now, in a game with hints, shared
   * by every connection that asks. `deliver` gets the hint before the state frame that counts it
   * (once per turn). Resolves with an error if refused or the turn moved on meanwhile. The search
   * runs outside the write queue: a move sent meanwhile is not held up by it. */
  ask(seat: number, turn: number, deliver: (hint: HintAnswer) => void): Promise<MoveError | null> {
    const searcher = this.searcher;
    if (!this.setup.hints || !searcher) return Promise.resolve({ error: 'hints_off', message: 'this game was created without hints' });
    const problem = this.table.problem(seat, turn);
    if (problem) return Promise.resolve(problem);
    if (this.searches.has(seat, turn)) searcher.shared();
    return this.searches.ask(seat, turn, deliver, () => this.find(searcher, seat, turn));
  }

  /** Searches the hint on the state as it is now, then counts it (stored) if the turn is still
   * the seat's. */
  private async find(searcher: HintSearcher, seat: number, turn: number): Promise<Move | MoveError> {
    try {
      const lent = this.table.lend();
      const move = await searcher.search(lent.state, hintSeed(this.setup, turn, seat), this.log).finally(lent.release);
      return await this.writes.run(() => this.count(seat, turn, move));
    } catch (e) {
      if (e instanceof HintBusyError) return { error: 'hint_busy', message: `${e.message}: bot moves come first; ask again in a few seconds` };
      throw e;
    }
  }

  /** Counts the hint once (stored): the move, or why it no longer counts. */
  private async count(seat: number, turn: number, move: Move): Promise<Move | MoveError> {
    const late = this.table.problem(seat, turn);
    if (late) return late;
    if (!(await this.writes.commit((store) => recordHint(store, this.setup.id, seat))))
      return { error: 'storage_unavailable', message: `the hint could not be counted (${this.writes.unstoredReason}); try again in a few seconds` };
    this.counts[seat] = (this.counts[seat] ?? 0) + 1;
    return move;
  }
}
