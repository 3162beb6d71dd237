// Move enumeration and one-ply scoring shared by the greedy, heuristic and search bots.
// A move is packed into one int: ((fi << 2 | r) << 4) | (spot + 1).

import { GameState, H_FOLLOWERS } from '../state.ts';
import { addFollowerToLastPlaced, bagEmpty, finalScoring, freeSpots, listPlacements, place } from '../rules.ts';
import { evaluate, finalValues, margin } from './evaluate.ts';
import type { Rng } from '../rng.ts';

/** Upper bound on moves for one tile: placements × (no follower + up to 8 spots). */
export const MAX_MOVES = 8192;

export function packMove(fi: number, r: number, spot: number): number {
  return (((fi << 2) | r) << 4) | (spot + 1);
}
export function moveFi(m: number): number {
  return m >> 6;
}
export function moveR(m: number): number {
  return (m >> 4) & 3;
}
export function moveSpot(m: number): number {
  return (m & 15) - 1;
}

const placements = new Int32Array(4 * 160);

/** Every legal move of the current tile (with and without a follower), packed. */
export function listMoves(s: GameState, out: Int32Array): number {
  const type = s.currentTile;
  const n = listPlacements(s, type, placements);
  const hasFollower = s.h[H_FOLLOWERS + s.currentPlayer] > 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const fi = placements[i] >> 2;
    const r = placements[i] & 3;
    out[k++] = packMove(fi, r, -1);
    if (!hasFollower) continue;
    let spots = freeSpots(s, type, r, s.fcell[fi]);
    while (spots !== 0) {
      const spot = 31 - Math.clz32(spots & -spots);
      spots &= spots - 1;
      out[k++] = packMove(fi, r, spot);
    }
  }
  return k;
}

export function applyPacked(s: GameState, m: number): void {
  place(s, moveFi(m), moveR(m), moveSpot(m));
}

const values = new Float64Array(4);
let placed: GameState | null = null;

/**
 * Value of each move for the player to move: `mode` 'greedy' = lead if the game ended right
 * after the move (immediate score plus everything as it would score now); 'heuristic' = lead by
 * the static evaluation. Writes into `scores`; uses `scratch` (clobbered).
 * A follower move right after its placement's move without one (listMoves' order) starts from
 * that placed copy instead of placing the tile again: the same state, a third of the work.
 */
export function scoreMoves(s: GameState, moves: Int32Array, count: number, scores: Float64Array, scratch: GameState, mode: 'greedy' | 'heuristic'): void {
  const me = s.currentPlayer;
  const players = s.players;
  placed ??= new GameState();
  let placement = -1; // the fi/r part of the move `placed` holds
  for (let i = 0; i < count; i++) {
    const m = moves[i];
    const spot = moveSpot(m);
    let after: GameState;
    if (spot < 0) {
      applyPacked(placed.copyFrom(s), m);
      placement = m >> 4;
      after = placed;
    } else {
      after = scratch;
      const fromPlaced = placement === m >> 4 && addFollowerToLastPlaced(scratch.copyFrom(placed), spot);
      if (!fromPlaced) applyPacked(scratch.copyFrom(s), m);
    }
    if (mode === 'greedy' || bagEmpty(after)) {
      // Final scoring changes the state: never on `placed`, which later moves start from.
      after = scratch.copyFrom(after);
      finalScoring(after);
      finalValues(after, values);
    } else evaluate(after, values);
    scores[i] = margin(values, players, me);
  }
}

/** Index of the best score; exact ties broken by `rng` (reservoir), so the choice is seeded. */
export function argmax(scores: Float64Array, count: number, rng: Rng): number {
  let best = 0;
  let ties = 1;
  for (let i = 1; i < count; i++) {
    const d = scores[i] - scores[best];
    if (d > 1e-9) {
      best = i;
      ties = 1;
    } else if (d > -1e-9) {
      ties++;
      if (rng.below(ties) === 0) best = i;
    }
  }
  return best;
}
