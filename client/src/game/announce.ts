// What a screen-reader user hears when a state frame arrives: the move just made and its
// scorings, then whose turn it is, in one polite live-region message (not the whole log).

import type { GameView, LastMove } from '../protocol.ts';
import { eventText, moveText, seatName } from '../text.ts';

/** The sentence for this frame, or null when nothing new happened since `heardTurn`. */
export function announcement(prev: GameView | null, view: GameView, last: LastMove | null, heardTurn: number): string | null {
  const parts: string[] = [];
  if (last && last.turn > heardTurn && prev) {
    parts.push(`${moveText(last, view.seats)}.`);
    for (const e of last.events) parts.push(`${eventText(e, view.seats)}.`);
  }
  const turnChanged = !prev || prev.currentSeat !== view.currentSeat || prev.turn !== view.turn || prev.status !== view.status;
  if (turnChanged) {
    if (view.status === 'finished') {
      const best = Math.max(...view.seats.map((s) => s.score));
      const winners = view.seats.filter((s) => s.score === best).map((s) => seatName(view.seats, s.seat));
      parts.push(`Game over: ${winners.join(' and ')} ${winners.length > 1 ? 'share the win' : 'wins'} with ${best}.`);
    } else if (view.status === 'playing' && view.currentSeat !== null) {
      parts.push(view.currentSeat === view.you ? 'Your turn.' : `${seatName(view.seats, view.currentSeat)}’s turn.`);
    }
  }
  return parts.length ? parts.join(' ') : null;
}

/** Adds `text` to the live region as a new line (screen readers read each addition, so a
 * bot's move right after yours does not cut yours off); the last few lines are kept. */
export function announce(region: HTMLElement, text: string): void {
  const line = document.createElement('p');
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > 4) region.firstElementChild!.remove();
}
