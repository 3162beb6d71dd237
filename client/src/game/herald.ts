// What a state frame tells the person beyond the panels: the sounds (sound.ts), the sentence
// for the live region (game/announce.ts) and the tab's title when it becomes their turn. A move
// is heard once: not again when a frame is resent, nor the moves a welcome catches up on.

import type { GameView, LastMove } from '../protocol.ts';
import { cuesFor, play } from '../sound.ts';
import { announce, announcement } from './announce.ts';

export class Herald {
  private readonly region: HTMLElement;
  /** The last move already heard and announced. */
  private heardTurn = -1;

  constructor(region: HTMLElement) {
    this.region = region;
  }

  /** The moves a welcome brings are history, not news. */
  caughtUp(history: LastMove[]): void {
    this.heardTurn = history.at(-1)?.turn ?? -1;
  }

  hear(prev: GameView | null, v: GameView, last: LastMove | null): void {
    for (const cue of cuesFor(prev, v, last, this.heardTurn)) play(cue);
    const said = announcement(prev, v, last, this.heardTurn);
    if (said) announce(this.region, said);
    if (last) this.heardTurn = Math.max(this.heardTurn, last.turn);
    if (v.currentSeat !== null && v.currentSeat === v.you && prev && prev.currentSeat !== v.you) document.title = 'Your turn · Tessera';
    else if (v.currentSeat !== v.you) document.title = 'Tessera';
  }
}
