// One hint search per seat and turn, however many connections ask: a repeat joins the search in
// flight, or is answered from the hint once it is counted. Knows nothing of rooms, stores or the
// pool: whoever asks passes the search (which also counts the hint) in.

import type { Logger } from 'pino';
import type { Move } from '../../bot-engine/game.ts';
import type { MoveError } from './table.ts';

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
