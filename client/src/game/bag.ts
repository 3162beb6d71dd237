// Tiles left: every tile type of the game's set with how many are still in the bag (public
// knowledge: the set less the board, the tile being placed and the discards), with its art; in
// the side panel, and in the phone's sheet.

import { tileIcon } from '../art.ts';
import { esc, patch } from '../dom.ts';
import type { GameView } from '../protocol.ts';
import { tileWords } from '../text.ts';
import { tilesInBag } from './bag-count.ts';

export function renderBag(box: HTMLElement, v: GameView, discarded: readonly string[]): void {
  const left = tilesInBag(v, discarded);
  let total = 0;
  for (const n of left.values()) total += n;
  // Most common first (what a player counts on), then by the rules' order.
  const order = [...left.keys()];
  const rows = order
    .map((name) => ({ name, n: left.get(name)! }))
    .sort((a, b) => b.n - a.n || order.indexOf(a.name) - order.indexOf(b.name))
    .map(
      ({ name, n }) =>
        `<li class="bag-tile${n === 0 ? ' gone' : ''}" data-tile="${name}" data-left="${n}" title="${esc(tileWords(name))}: ${n} left">${tileIcon(name, 0, 38)}<span class="bag-n" aria-hidden="true">${n}</span><span class="sr-only">${esc(tileWords(name))}: ${n}</span></li>`,
    )
    .join('');
  const wasOpen = box.querySelector('details')?.open ?? true;
  patch(
    box,
    `<details class="bag"${wasOpen ? ' open' : ''}><summary><h2>Tiles left <span class="bag-total" data-total="${total}">${total}</span></h2></summary><ul class="bag-grid">${rows}</ul></details>`,
  );
}
