// The phone's sheet (players, tiles left, table talk and the log under one toggle): opening and
// closing it, and on its toggle the count of messages that came while it was closed.

export class SheetToggle {
  private readonly game: HTMLElement;
  private readonly toggle: HTMLElement;
  private readonly badge: HTMLElement;
  private unread = 0;

  constructor(game: HTMLElement, toggle: HTMLElement, badge: HTMLElement) {
    this.game = game;
    this.toggle = toggle;
    this.badge = badge;
  }

  /** Opens or closes the sheet; opening it reads what was unread. */
  flip(): void {
    const open = this.game.classList.toggle('sheet-open');
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open) this.show(0);
  }

  /** A message was heard: counted while the talk (`box`) is out of sight. */
  heard(box: HTMLElement): void {
    if (box.offsetParent === null) this.show(this.unread + 1);
  }

  private show(n: number): void {
    this.unread = n;
    this.badge.hidden = n === 0;
    this.badge.innerHTML = n ? `<span aria-hidden="true">${n}</span><span class="sr-only"> (${n} new ${n === 1 ? 'message' : 'messages'})</span>` : '';
  }
}
