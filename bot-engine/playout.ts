// Uniformly random play straight on the flat state: the `random` bot, property tests and
// the engine benchmark all use it.

import { type GameState, H_FOLLOWERS } from './state.ts';
import { type ScoreEvent, bagEmpty, discardUnplaceable, finalScoring, freeSpots, listPlacements, place } from './rules.ts';
import type { Rng } from './rng.ts';

const placements = new Int32Array(4 * 160);

/** Picks a uniformly random legal (placement, follower spot or none) for the current tile. */
export function randomMove(s: GameState, rng: Rng, followerChance = 0.5): { fi: number; r: number; spot: number } {
  const type = s.currentTile;
  const n = listPlacements(s, type, placements);
  const m = placements[rng.below(n)];
  const fi = m >> 2;
  const r = m & 3;
  let spot = -1;
  if (s.h[H_FOLLOWERS + s.currentPlayer] > 0 && rng.unit() < followerChance) {
    const free = freeSpots(s, type, r, s.fcell[fi]);
    const count = popcount(free);
    if (count > 0) spot = nthBit(free, rng.below(count));
  }
  return { fi, r, spot };
}

/** Plays random moves until the bag is empty, then scores the end. */
export function playRandomGame(s: GameState, rng: Rng, events?: ScoreEvent[]): void {
  discardUnplaceable(s);
  while (!bagEmpty(s)) {
    const { fi, r, spot } = randomMove(s, rng);
    place(s, fi, r, spot, events);
    discardUnplaceable(s);
  }
  finalScoring(s, events);
}

function popcount(x: number): number {
  let c = 0;
  for (; x !== 0; x &= x - 1) c++;
  return c;
}

/** Index of the k-th set bit of mask (k from 0). */
function nthBit(mask: number, k: number): number {
  for (let i = 0; i < 32; i++) if (mask & (1 << i) && k-- === 0) return i;
  return -1;
}
