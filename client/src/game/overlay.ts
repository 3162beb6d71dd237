// The dialog over the game (markup in game/dialogs.ts) and when it shows by itself: the end
// screen once the game is over (unless closed to look at the board), the join form while a seat
// is open (unless "just watch" was chosen), neither once play starts.

import { savedName } from '../api.ts';
import { currentPlayer } from '../players/session.ts';
import type { GameView } from '../protocol.ts';
import { hasOpenSeat } from './board-panel.ts';
import { endScreen, joinDialog, missingDialog } from './dialogs.ts';

export class Overlay {
  private readonly el: HTMLElement;
  private endDismissed = false;
  private joinDismissed = false;

  constructor(el: HTMLElement) {
    this.el = el;
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** After a state frame (`replaying`: the final scorings are still being shown). */
  follow(v: GameView, holdsSeat: boolean, replaying: boolean): void {
    if (v.status === 'finished' && !replaying && !this.endDismissed && (this.el.hidden || !this.el.querySelector('.end'))) this.showEnd(v, holdsSeat);
    else if (v.status === 'waiting' && !holdsSeat && !this.joinDismissed && this.el.hidden && hasOpenSeat(v)) this.showJoin(v);
    else if (v.status === 'playing' && this.el.querySelector('[data-form=join]')) this.hide();
  }

  /** The final scorings were shown (`skipped`: cut short by the player): now the end screen. */
  afterFinalScoring(v: GameView, holdsSeat: boolean, skipped: boolean): void {
    if (!this.endDismissed && (skipped || this.el.hidden)) this.showEnd(v, holdsSeat);
  }

  /** The end screen, asked for again after it was closed. */
  reopenEnd(v: GameView, holdsSeat: boolean): void {
    this.endDismissed = false;
    this.showEnd(v, holdsSeat);
  }

  /** "See the board" (or Escape): the end screen stays closed until asked for. */
  closeEnd(): void {
    this.endDismissed = true;
    this.hide();
  }

  offerJoin(v: GameView): void {
    this.joinDismissed = false;
    this.showJoin(v);
  }

  /** "Just watch": the join form is not offered again by itself. */
  watch(): void {
    this.joinDismissed = true;
    this.hide();
  }

  missing(message: string): void {
    this.show(missingDialog(message));
  }

  hide(): void {
    this.el.hidden = true;
  }

  private showEnd(v: GameView, holdsSeat: boolean): void {
    this.show(endScreen(v, holdsSeat));
    // The first action takes the focus without scrolling to it: the end screen opens at its top,
    // the title and the winner's row in view.
    this.el.querySelector<HTMLElement>('.btn')?.focus({ preventScroll: true });
    this.el.scrollTop = 0;
    const dialog = this.el.querySelector<HTMLElement>('.dialog');
    if (dialog) dialog.scrollTop = 0;
  }

  private showJoin(v: GameView): void {
    this.show(joinDialog(v, currentPlayer()?.name ?? savedName()));
    this.el.querySelector<HTMLInputElement>('input[name=name]')?.focus();
  }

  private show(html: string): void {
    this.el.hidden = false;
    this.el.innerHTML = html;
  }
}
