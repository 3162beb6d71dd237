// "Since you last looked": opening a turn-based game after days away shows the others' moves
// since this player's last move, replayed on the board one by one (the board shows it as it
// stood at their move, then each tile lands) and listed beside it. The choice of moves is plain
// data (since-moves.ts); the show drives the board through the screen state's `hidden` tiles.

import type { GameView, LastMove } from '../protocol.ts';
import { sinceList } from './since-moves.ts';

/** Each move stays this long, the whole replay at most TOTAL_MS. */
const STEP_MS = 1500;
const TOTAL_MS = 12_000;

export interface SinceHooks {
  /** Tiles ("x,y") not to draw yet: the moves still to come in the replay. */
  hide(keys: ReadonlySet<string>): void;
  /** A move's tile has landed: show it on the board (flash, centre). */
  landed(move: LastMove): void;
}

/** The replay while it runs, so that it can be skipped; the list stays until closed. */
export class SinceShow {
  private timer = 0;
  private banner: HTMLElement | null = null;

  /** Replays `moves` on the board (through `hooks`) and lists them in `banner`. */
  start(banner: HTMLElement, v: GameView, moves: LastMove[], hooks: SinceHooks): void {
    this.stop();
    this.banner = banner;
    const stepMs = Math.min(STEP_MS, TOTAL_MS / moves.length);
    const waiting = new Set(moves.map((m) => `${m.move.x},${m.move.y}`));
    hooks.hide(waiting);
    let step = 0;
    const draw = (now: number) => {
      banner.hidden = false;
      banner.dataset.step = String(now + 1);
      banner.dataset.steps = String(moves.length);
      const done = now >= moves.length;
      banner.innerHTML = `${sinceList(moves, v.seats, now)}<p>${done ? '' : '<button class="btn small" data-action="skip-since">Skip</button> '}<button class="btn small ghost" data-action="close-since">Close</button></p>`;
    };
    const next = () => {
      if (step >= moves.length) {
        hooks.hide(new Set());
        draw(moves.length);
        return;
      }
      const move = moves[step];
      waiting.delete(`${move.move.x},${move.move.y}`);
      hooks.hide(new Set(waiting));
      hooks.landed(move);
      draw(step);
      step++;
      this.timer = window.setTimeout(next, stepMs);
    };
    draw(-1);
    this.timer = window.setTimeout(next, 600);
    this.skip = () => {
      clearTimeout(this.timer);
      step = moves.length;
      next();
    };
  }

  /** Shows every move at once (the list stays). */
  skip: () => void = () => {};

  stop(): void {
    clearTimeout(this.timer);
    if (this.banner) this.banner.hidden = true;
    this.banner = null;
  }
}
