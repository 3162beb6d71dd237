// The main thread's game states are copied into reused buffers. A state is a 48 KB ArrayBuffer,
// memory outside V8's heap: a new one per move (~165 moves/s at 200 games) drove V8 to a full
// mark-compact every ~6 s (12–18 ms pauses on the event loop) only to free them. A room gives
// its replaced state back once nothing reads it any more (HeldState), and the next copy takes it.

import type { GameState } from '../../bot-engine/state.ts';

/** Enough for the moves in flight at once; past it a given-back state is left to the GC. */
const MAX_SPARE = 256;
const spare: GameState[] = [];

/** A copy of `state`: in a given-back state's buffer when there is one. */
export function copyOfState(state: GameState): GameState {
  const reused = spare.pop();
  return reused ? reused.copyFrom(state) : state.clone();
}

/** States waiting to be reused (tests). */
export function spareStates(): number {
  return spare.length;
}

/** `state` will not be read again: its buffer may take the next copy. */
export function giveBack(state: GameState): void {
  // A buffer moved to a worker is detached (length 0): nothing to reuse.
  if (state.buffer.byteLength > 0 && spare.length < MAX_SPARE) spare.push(state);
}

/** A room's current state, and the replaced ones a search still reads: each goes back to the
 * stock once it is neither current nor lent. States are replaced, never changed, so a search
 * reads the state it was given without a copy; lending is what keeps that true with reuse. */
export class HeldState {
  private state: GameState;
  private readonly lent = new Map<GameState, number>();

  constructor(state: GameState) {
    this.state = state;
  }

  get current(): GameState {
    return this.state;
  }

  /** `next` is the game's state from now on. */
  replace(next: GameState): void {
    const old = this.state;
    if (old === next) return;
    this.state = next;
    if (!this.lent.has(old)) giveBack(old);
  }

  /** The current state, read (without a copy) by a search until the returned function is called. */
  lend(): { state: GameState; release: () => void } {
    const state = this.state;
    this.lent.set(state, (this.lent.get(state) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.lent.get(state) ?? 1) - 1;
      if (left > 0) return void this.lent.set(state, left);
      this.lent.delete(state);
      if (state !== this.state) giveBack(state);
    };
    return { state, release };
  }
}
