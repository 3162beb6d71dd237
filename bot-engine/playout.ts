// Uniformly random play straight on the flat state: the `random` bot, property tests and
// the engine benchmark all use it.

import { type GameState, H_OPTIONS, MAX_PLACEMENTS, supplySlot } from './state.ts';
import { type ScoreEvent, bagEmpty, discardUnplaceable, figureSpot, finalScoring, freeSpots, listPlacements, openFigureSpots, place } from './rules.ts';
import { FOLLOWER_SEGS } from './tiles.ts';
import type { Rng } from './rng.ts';
import { ACTION_ALLOWED, ACTION_OPTION, ACTION_SPOT } from './expansions/index.ts';
import { FIGURE_FOLLOWER, FIGURE_KINDS } from './expansions/options.ts';

const placements = new Int32Array(MAX_PLACEMENTS);

/** Picks a uniformly random legal (placement, figure on a spot, or none) for the current tile:
 * with `followerChance` a figure, uniform over every (figure in the supply, spot open to it). */
export function randomMove(s: GameState, rng: Rng, followerChance = 0.5): { fi: number; r: number; spot: number } {
  const type = s.currentTile;
  const n = listPlacements(s, type, placements);
  const m = placements[rng.below(n)];
  const fi = m >> 2;
  const r = m & 3;
  let spot = -1;
  const p = s.currentPlayer;
  const followers = s.h[supplySlot(FIGURE_FOLLOWER, p)] > 0;
  let expansionFigures = false;
  for (let f = FIGURE_FOLLOWER + 1; f < FIGURE_KINDS; f++) if (s.h[supplySlot(f, p)] > 0) expansionFigures = true;
  // A turn action allowed here (the abbot taken back) is one more choice among the figure moves.
  let actions = 0;
  const options = s.h[H_OPTIONS];
  for (let a = 0; a < ACTION_SPOT.length; a++) if (options & ACTION_OPTION[a] && ACTION_ALLOWED[a](s, fi)) actionSpots[actions++] = ACTION_SPOT[a];
  if (!expansionFigures && actions === 0) {
    // Followers only (the base game): the draw as it always was.
    if (followers && rng.unit() < followerChance) {
      const free = freeSpots(s, type, r, s.fcell[fi]) & FOLLOWER_SEGS[type];
      const count = popcount(free);
      if (count > 0) spot = nthBit(free, rng.below(count));
    }
    return { fi, r, spot };
  }
  if (rng.unit() < followerChance) {
    openFigureSpots(s, type, r, s.fcell[fi], figureMasks);
    let count = actions;
    for (let figure = 0; figure < FIGURE_KINDS; figure++) count += popcount(figureMasks[figure]);
    const drawn = actions > 0 ? rng.below(count) : -1;
    if (drawn >= 0 && drawn < actions) spot = actionSpots[drawn];
    else if (count > actions) {
      let k = rng.below(count - actions);
      for (let figure = 0; figure < FIGURE_KINDS; figure++) {
        const c = popcount(figureMasks[figure]);
        if (k < c) {
          spot = figureSpot(nthBit(figureMasks[figure], k), figure);
          break;
        }
        k -= c;
      }
    }
  }
  return { fi, r, spot };
}
const figureMasks = new Int32Array(FIGURE_KINDS);
const actionSpots = new Int32Array(ACTION_SPOT.length);

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
