// Installs the shared SVG definitions (tile art, patterns, the meeple shape) once per page: a
// hidden SVG that every board and preview references by id. The only DOM code of the tile art.

import { MEEPLE_DEFS, SVG_NS, segmentDefs, tileDefs } from './art.ts';
import { expansionSegmentDefs, expansionTileDefs } from './expansion-art.ts';

/** Installs the shared tile definitions once per page (a hidden SVG that every board and preview
 * references by id). */
export function ensureTileDefs(): void {
  if (document.getElementById('tessera-tile-defs')) return;
  const holder = document.createElementNS(SVG_NS, 'svg');
  holder.setAttribute('id', 'tessera-tile-defs');
  holder.setAttribute('aria-hidden', 'true');
  holder.setAttribute('width', '0');
  holder.setAttribute('height', '0');
  holder.style.position = 'absolute';
  holder.innerHTML = `<defs>${tileDefs()}${expansionTileDefs()}${segmentDefs()}${expansionSegmentDefs()}${MEEPLE_DEFS}</defs>`;
  document.body.prepend(holder);
}
