// How many tiles of each type are still in the bag (no DOM): the 72-tile set less the board,
// the discards and the tile in hand.

import { TILE_COUNTS, TILE_NAMES } from '../../../bot-engine/tiles.ts';
import type { GameView } from '../protocol.ts';

/** Tiles of each type still in the bag. */
export function tilesInBag(v: GameView, discarded: readonly string[]): Map<string, number> {
  const left = new Map(TILE_NAMES.map((n, i) => [n, TILE_COUNTS[i]]));
  const out = (n: string | null) => {
    if (n && left.has(n)) left.set(n, Math.max(0, left.get(n)! - 1));
  };
  for (const t of v.board) out(t.tile);
  for (const d of discarded) out(d);
  if (v.status === 'playing') out(v.tile);
  return left;
}
