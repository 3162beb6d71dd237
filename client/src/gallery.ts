// #/tiles: every tile type at every rotation with its follower spots marked — a reference sheet
// for players and a visual check of the tile art (the e2e tests screenshot it).

import { TILES, TILE_NAMES, ROT_SPOT_NAMES } from '../../bot-engine/tiles.ts';
import { PLAYER_COLORS, meepleMarkup, spotPosition } from './art.ts';
import { ensureTileDefs } from './defs.ts';
import { esc } from './dom.ts';

export function mountGallery(root: HTMLElement): () => void {
  ensureTileDefs();
  const cards = TILE_NAMES.map((name, t) => {
    const rots = [0, 90, 180, 270]
      .map((r) => {
        const spots = ROT_SPOT_NAMES[t * 4 + r / 90];
        const marks = spots
          .map((s, i) => {
            const p = spotPosition(name, r, s)!;
            return meepleMarkup(i % 4, p.at[0], p.at[1], { farmer: p.kind === 'field', scale: 0.7 });
          })
          .join('');
        return `<svg class="gallery-tile" viewBox="-3 -3 106 106" role="img" aria-label="tile ${name} at ${r} degrees, spots ${esc(spots.join(', '))}"><use href="#tile-${name}" transform="rotate(${r} 50 50)"/>${marks}</svg>`;
      })
      .join('');
    return `<figure class="gallery-card"><figcaption><strong>${name}</strong> ×${TILES[t].count}</figcaption><div class="gallery-rots">${rots}</div></figure>`;
  }).join('');
  root.innerHTML = `<div class="gallery"><header class="topbar"><a class="brand" href="#/"><span class="brand-mark" aria-hidden="true"></span>Tessera</a><span>The 24 tiles, each at 0°, 90°, 180° and 270°, with every follower spot</span></header><div class="gallery-grid" style="--pc:${PLAYER_COLORS[0]}">${cards}</div></div>`;
  return () => {};
}
