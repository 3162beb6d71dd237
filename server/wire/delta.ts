// A client's side of protocol version 2 (docs/PROTOCOL.md §4): the view it holds, kept up to date
// by `delta` frames, and when it must ask for the whole view again. Pure and free of schema code,
// so the browser client, the load generator and the tests share it.

import type { DeltaFrame, StateFrame } from './frames.ts';
import type { GameView } from './game.ts';

/** The view a delta leads to, or null when it does not follow `view` (then ask for a `sync`). */
function applyDelta(view: GameView, delta: DeltaFrame): GameView | null {
  if (delta.from !== view.board.length) return null;
  return { ...delta.view, board: delta.placed.length === 0 ? view.board : view.board.concat(delta.placed) };
}

export class ViewTracker {
  view: GameView | null = null;
  private seq: number | null = null;
  /** A `sync` was asked for: deltas are ignored until the whole view comes. */
  private syncing = false;

  /** A whole view: taken as it is. */
  state(frame: StateFrame): GameView {
    this.view = frame.view;
    this.seq = frame.seq ?? null;
    this.syncing = false;
    return frame.view;
  }

  /** The view a delta leads to; 'sync' when the client must ask for the whole view (a gap, or a
   * delta that does not follow), null while that answer is awaited. */
  delta(frame: DeltaFrame): GameView | 'sync' | null {
    if (this.syncing) return null;
    const next = this.view && this.seq !== null && frame.seq === this.seq + 1 ? applyDelta(this.view, frame) : null;
    if (!next) {
      this.syncing = true;
      return 'sync';
    }
    this.view = next;
    this.seq = frame.seq;
    return next;
  }

  /** A new connection: its first view is a whole one. */
  reset(): void {
    this.view = null;
    this.seq = null;
    this.syncing = false;
  }
}
