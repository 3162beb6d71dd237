// Determinized policy rollouts with common random numbers (experimental search variant).
//
// The best `candidates` root moves by the static evaluation are each played out on the same
// `samples` determinizations (tile orders shuffled from the remaining multiset: never the real
// order) for `horizon` further plies, every player using the heuristic policy, then judged by the
// static evaluation. Sharing the determinizations across candidates makes the comparison paired,
// which removes most of the luck of the draw from the difference between two candidates.

import { BAG_SIZE, GameState, H_BAGPOS } from '../state.ts';
import { bagEmpty, discardUnplaceable, finalScoring } from '../rules.ts';
import { Rng, mixSeed } from '../rng.ts';
import { evaluate, finalValues, margin } from './evaluate.ts';
import { MAX_MOVES, applyPacked, argmax, listMoves, moveFi, moveR, moveSpot, scoreMoves } from './moves.ts';
import type { BotDecision, SearchControl } from './index.ts';

export interface RolloutParams {
  candidates: number;
  samples: number;
  horizon: number;
}

const rootMoves = new Int32Array(MAX_MOVES);
const rootScores = new Float64Array(MAX_MOVES);
const moves = new Int32Array(MAX_MOVES);
const scores = new Float64Array(MAX_MOVES);
const values = new Float64Array(4);
let det: GameState | null = null;
let order: GameState | null = null;
let scratch: GameState | null = null;

export function rolloutSearch(root: GameState, p: RolloutParams, seed: number, control?: SearchControl): BotDecision {
  det ??= new GameState();
  order ??= new GameState();
  scratch ??= new GameState();
  const me = root.currentPlayer;
  const players = root.players;
  const total = listMoves(root, rootMoves);
  scoreMoves(root, rootMoves, total, rootScores, scratch, 'heuristic');
  const idx = Array.from({ length: total }, (_, i) => i);
  idx.sort((a, b) => rootScores[b] - rootScores[a] || rootMoves[a] - rootMoves[b]);
  const k = Math.min(p.candidates, total);
  const sum = new Float64Array(k);
  const rng = new Rng(seed);
  const start = root.h[H_BAGPOS] + 1;
  let it = 0;
  let done = 0;
  let stopped = false;
  if (k > 1) {
    outer: for (let s = 0; s < p.samples; s++) {
      order.copyFrom(root);
      const bag = order.bag;
      for (let i = BAG_SIZE - 1; i > start; i--) {
        const j = start + rng.below(i - start + 1);
        const t = bag[i];
        bag[i] = bag[j];
        bag[j] = t;
      }
      for (let c = 0; c < k; c++) {
        if (control?.shouldStop()) {
          stopped = true;
          break outer;
        }
        det.copyFrom(order);
        applyPacked(det, rootMoves[idx[c]]);
        discardUnplaceable(det);
        for (let h = 0; h < p.horizon && !bagEmpty(det); h++) {
          const n = listMoves(det, moves);
          scoreMoves(det, moves, n, scores, scratch, 'heuristic');
          applyPacked(det, moves[argmax(scores, n, new Rng(mixSeed(seed, s, h)))]);
          discardUnplaceable(det);
        }
        if (bagEmpty(det)) {
          finalScoring(det);
          finalValues(det, values);
        } else evaluate(det, values);
        sum[c] += margin(values, players, me);
        it++;
      }
      done++;
    }
  }
  let best = 0;
  if (done > 0) for (let c = 1; c < k; c++) if (sum[c] > sum[best]) best = c;
  const m = rootMoves[idx[best]];
  return { fi: moveFi(m), r: moveR(m), spot: moveSpot(m), iterations: it, stopped };
}
