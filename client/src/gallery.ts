// #/tiles: every tile type at every rotation with its follower spots marked — a reference sheet
// for players and a visual check of the tile art (the e2e tests screenshot it).

import { ROT_SPOT_NAMES, TILES, TILE_NAMES, TYPE_NAMES } from '../../bot-engine/tiles.ts';
import { PLAYER_COLORS, PLAYER_GLYPH_NAMES, meepleMarkup, spotPosition } from './art.ts';
import { EXPANSION_TILE_NAMES } from './expansion-art.ts';
import { ensureTileDefs } from './defs.ts';
import { esc } from './dom.ts';

/** One tile type at one rotation with a figure on each of its spots (an abbot on a garden). */
function tileView(name: string, r: number): string {
  const spots = ROT_SPOT_NAMES[TYPE_NAMES.indexOf(name) * 4 + r / 90];
  const marks = spots
    .map((s, i) => {
      const p = spotPosition(name, r, s)!;
      return meepleMarkup(i % 4, p.at[0], p.at[1], { farmer: p.kind === 'field', scale: 0.7, figure: p.kind === 'garden' ? 'abbot' : 'follower' });
    })
    .join('');
  return `<svg class="gallery-tile" viewBox="-3 -3 106 106" role="img" aria-label="tile ${name} at ${r} degrees, spots ${esc(spots.join(', '))}"><use href="#tile-${name}" transform="rotate(${r} 50 50)"/>${marks}</svg>`;
}

export function mountGallery(root: HTMLElement): () => void {
  ensureTileDefs();
  const cards = TILE_NAMES.map((name, t) => {
    const rots = [0, 90, 180, 270].map((r) => tileView(name, r)).join('');
    return `<figure class="gallery-card"><figcaption><strong>${name}</strong> ×${TILES[t].count}</figcaption><div class="gallery-rots">${rots}</div></figure>`;
  }).join('');
  root.innerHTML = `<div class="gallery"><header class="topbar"><a class="brand" href="#/"><span class="brand-mark" aria-hidden="true"></span>Tessera</a><span>The 24 tiles, each at 0°, 90°, 180° and 270°, with every follower spot</span></header><div class="gallery-grid" style="--pc:${PLAYER_COLORS[0]}">${cards}</div>
<h2 class="gallery-head">Expansion tiles: the River, Inns &amp; Cathedrals, the Abbot’s gardens</h2><div class="gallery-grid" data-gallery="expansions">${expansionCards()}</div>
<h2 class="gallery-head">Figures of every seat</h2><div class="gallery-grid" data-gallery="figures">${figureCards()}</div></div>`;
  return () => {};
}

/** The river, inns & cathedrals and garden tiles, each at 0° and 90°, with their spots. */
function expansionCards(): string {
  return EXPANSION_TILE_NAMES.map((name) => {
    const rots = [0, 90].map((r) => tileView(name, r)).join('');
    return `<figure class="gallery-card"><figcaption><strong>${name}</strong></figcaption><div class="gallery-rots">${rots}</div></figure>`;
  }).join('');
}

/** Each seat's follower, farmer, large follower and abbot, side by side on a field. */
function figureCards(): string {
  return PLAYER_COLORS.map((_, seat) => {
    const figures = `<rect width="200" height="70" rx="6" fill="url(#t-field)"/>${meepleMarkup(seat, 28, 36)}${meepleMarkup(seat, 72, 40, { farmer: true })}${meepleMarkup(seat, 122, 34, { figure: 'large' })}${meepleMarkup(seat, 172, 36, { figure: 'abbot' })}`;
    return `<figure class="gallery-card"><figcaption><strong>Seat ${seat + 1}</strong> (${PLAYER_GLYPH_NAMES[seat]}): follower, farmer, large follower, abbot</figcaption><svg class="gallery-figures" viewBox="0 0 200 70" role="img" aria-label="seat ${seat + 1}: follower, farmer, large follower and abbot">${figures}</svg></figure>`;
  }).join('');
}
