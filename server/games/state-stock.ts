// The main thread's game states are copied into reused buffers. A state is a 48 KB ArrayBuffer,
// memory outside V8's heap: a new one per move (~165 moves/s at 200 games) drove V8 to a full
// mark-compact every ~7 s (14–18 ms pauses on the event loop) only to free them. A room gives
// its replaced state back once nothing reads it any more (HeldState), and the next copy takes it.

import { GameState } from '../../bot-engine/state.ts';

/** Enough for the moves in flight at once; past it a given-back state is left to the GC. */
const MAX_SPARE = 256;
const spare: GameState[] = [];

/** A copy of `state`: in a given-back state's buffer when there is one. */
export function copyOfState(state: GameState): GameState {
  const reused = spare.pop();
  return reused ? reused.copyFrom(state) : state.clone();
}

/** States and buffers waiting to be reused (tests). */
export function spareStates(): { states: number; buffers: number } {
  return { states: spare.length, buffers: spareBuffers.length };
}

/** `state` will not be read again: its buffer may take the next copy. */
function giveBack(state: GameState): void {
  // A buffer moved to a worker is detached (length 0): nothing to reuse.
  if (state.buffer.byteLength > 0 && spare.length < MAX_SPARE) spare.push(state);
}

// A bot search moves a copy of the state's bytes to a worker, which hands the buffer back with
// its answer. Wrapping that buffer in a new GameState would make its 27 typed-array views per bot
// move, which outlive the young generation: about a quarter of what the old space grew by.
const spareBuffers: ArrayBuffer[] = [];

/** `state`'s bytes in a buffer of their own, to move to a worker: one a worker handed back when there is one. */
export function bytesForWorker(state: GameState): ArrayBuffer {
  const buffer = spareBuffers.pop();
  if (!buffer) return state.buffer.slice(0);
  new Uint8Array(buffer).set(state.bytes);
  return buffer;
}

/** The state a worker handed back, in a given-back state when there is one (the buffer then
 * waits for the next copy to a worker). */
export function stateFromWorker(buffer: ArrayBuffer): GameState {
  const reused = spare.pop();
  if (!reused) return new GameState(buffer);
  reused.bytes.set(new Uint8Array(buffer));
  keepBuffer(buffer);
  return reused;
}

/** A buffer from bytesForWorker the pool never moved to a worker (a full queue, a task dropped at
 * its deadline); once moved it is detached, and keeping it is a no-op. */
export function keepBuffer(buffer: ArrayBuffer): void {
  if (buffer.byteLength > 0 && spareBuffers.length < MAX_SPARE) spareBuffers.push(buffer);
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
