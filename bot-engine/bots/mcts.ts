// Information-set Monte-Carlo tree search with explicit chance nodes. Measured weaker than the
// paired-rollout search in rollout.ts at the same time per move (docs/BOTS.md), so the shipped
// levels use that; this stays as the tree-search baseline, tested and benchmarkable.
//
// - Every iteration samples a determinization: the undrawn tiles after the current one are
//   shuffled from the remaining multiset with the search's own seeded RNG. The real order is
//   never looked at (chooseMove hands us a copy whose undrawn bag is sorted).
// - Decision node = (path of moves, tiles drawn along it); its moves lead to chance nodes whose
//   children are keyed by the next tile the determinization deals. One tree serves every sampled
//   order. Frontier slots are stable along a path: the board depends only on the moves.
// - A chance node's value is the expectation over the tile types expanded so far, weighted by
//   their counts in the remaining multiset (stratified: sampling noise in which tile came up
//   does not leak into the value). Before any child exists it is the static evaluation after
//   the move.
// - A decision node is expanded when first reached: priors for all its moves from the static
//   evaluation one ply ahead (what `heuristic` plays); only the best `innerMoves` are kept, and
//   progressive widening lets the best ⌊k0 + a·√visits⌋ of them compete under UCT, the prior
//   counting as `priorVisits` virtual visits. Its value is that of its best move so far.
// - Leaves use the static evaluation (no random rollouts), turned into a per-player value in
//   [0, 1] by a logistic of that player's lead; each node maximises its own player's value
//   (max^n: plain expectiminimax with 2 players). Lines stop after `maxDepth` plies.
// - Budgets are iteration counts, so the move is a function of (view, params, seed); the control
//   only caps the time and is reported through `stopped`.

import { BAG_SIZE, GameState, H_BAGPOS, MAX_PLAYERS } from '../state.ts';
import { bagEmpty, discardUnplaceable, finalScoring } from '../rules.ts';
import { TILE_TYPES } from '../tiles.ts';
import { Rng } from '../rng.ts';
import { evaluate, finalValues, margin } from './evaluate.ts';
import { MAX_MOVES, applyPacked, listMoves, moveFi, moveR, moveSpot, scoreMoves } from './moves.ts';
import type { BotDecision, SearchControl } from './index.ts';

export interface SearchParams {
  iterations: number;
  /** Moves kept at inner nodes (best priors); the root keeps all. */
  innerMoves: number;
  /** Progressive widening: children considered = k0 + a·visits^0.5. */
  k0: number;
  widen: number;
  /** UCT exploration constant and prior weight in virtual visits. */
  c: number;
  priorVisits: number;
  /** Plies below the root move after which a line is cut and evaluated. */
  maxDepth: number;
  /** Points of lead that make the logistic value 0.73. */
  scale: number;
}

/** Budgets this tree search was measured with (docs/BOTS.md); the shipped levels use rollout.ts. */
export const ISMCTS_LEVELS: Record<'medium' | 'hard' | 'expert', SearchParams> = {
  medium: { iterations: 250, innerMoves: 8, k0: 3, widen: 0.5, c: 0.1, priorVisits: 2, maxDepth: 1, scale: 15 },
  hard: { iterations: 600, innerMoves: 8, k0: 3, widen: 0.5, c: 0.1, priorVisits: 2, maxDepth: 2, scale: 15 },
  expert: { iterations: 1200, innerMoves: 10, k0: 3, widen: 0.5, c: 0.1, priorVisits: 2, maxDepth: 3, scale: 15 },
};

class Chance {
  /** Static value (per player) of the position right after the move. */
  readonly value = new Float64Array(MAX_PLAYERS);
  readonly acc = new Float64Array(MAX_PLAYERS);
  readonly childValue: Float64Array[] = [];
  sumW = 0;
  readonly children: (Decision | undefined)[] = new Array(TILE_TYPES);
  /** Weight of each tile type: its count in the remaining multiset after the move. */
  readonly weight = new Float64Array(TILE_TYPES);
}

class Decision {
  readonly player: number;
  visits = 0;
  count = 0;
  moves!: Int32Array;
  prior!: Float64Array;
  n!: Int32Array;
  chance!: (Chance | undefined)[];
  /** Current value estimate (per player): the best move's, by this node's player. */
  readonly value = new Float64Array(MAX_PLAYERS);
  constructor(player: number) {
    this.player = player;
  }
}

const allMoves = new Int32Array(MAX_MOVES);
const allScores = new Float64Array(MAX_MOVES);
const raw = new Float64Array(MAX_PLAYERS);
const pathNodes: Decision[] = [];
const pathIdx = new Int32Array(64);
let det: GameState | null = null;
let scratch: GameState | null = null;
let params: SearchParams;
let players = 2;

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Per-player value of position `s` into `out` (exact once the bag is empty; `s` is then scored). */
function staticValue(s: GameState, out: Float64Array): void {
  if (bagEmpty(s)) {
    finalScoring(s);
    finalValues(s, raw);
  } else evaluate(s, raw);
  for (let q = 0; q < players; q++) out[q] = logistic(margin(raw, players, q) / params.scale);
}

/** Moves and priors at `s` (the node's tile is current), best `keep` kept, best first. */
function expand(node: Decision, s: GameState, keep: number): void {
  const total = listMoves(s, allMoves);
  scoreMoves(s, allMoves, total, allScores, scratch!, 'heuristic');
  const order = Array.from({ length: total }, (_, i) => i);
  order.sort((a, b) => allScores[b] - allScores[a] || allMoves[a] - allMoves[b]);
  const count = Math.min(keep, total);
  node.count = count;
  node.moves = new Int32Array(count);
  node.prior = new Float64Array(count);
  node.n = new Int32Array(count);
  node.chance = new Array(count);
  for (let i = 0; i < count; i++) {
    node.moves[i] = allMoves[order[i]];
    node.prior[i] = logistic(allScores[order[i]] / params.scale);
  }
}

/** How much deeper search has moved the searched moves' values away from their one-ply priors
 * (replies cost the mover something): added to the priors so that searched and unsearched
 * moves compare on the same footing. */
function offset(node: Decision): number {
  let sum = 0;
  let k = 0;
  for (let i = 0; i < node.count; i++) {
    const c = node.chance[i];
    if (!c || node.n[i] === 0) continue;
    sum += c.value[node.player] - node.prior[i];
    k++;
  }
  return k ? sum / k : 0;
}

/** Prior-shrunk value of move i for the node's player. */
function q(node: Decision, i: number, off: number): number {
  const c = node.chance[i];
  const pv = params.priorVisits;
  const n = node.n[i];
  const prior = node.prior[i] + off;
  return c ? (c.value[node.player] * n + prior * pv) / (n + pv) : prior;
}

function select(node: Decision): number {
  const k = Math.min(node.count, params.k0 + Math.floor(params.widen * Math.sqrt(node.visits)));
  const logN = Math.log(node.visits + 1);
  const off = offset(node);
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < k; i++) {
    const v = q(node, i, off) + params.c * Math.sqrt(logN / (node.n[i] + 1));
    if (v > bestValue) {
      bestValue = v;
      best = i;
    }
  }
  return best;
}

/** The node's value becomes its best visited move's chance value. */
function refreshDecision(node: Decision): void {
  let best = -1;
  let bestQ = -Infinity;
  const off = offset(node);
  for (let i = 0; i < node.count; i++) {
    if (!node.chance[i]) continue;
    const v = q(node, i, off);
    if (v > bestQ) {
      bestQ = v;
      best = i;
    }
  }
  if (best >= 0) node.value.set(node.chance[best]!.value);
}

/** Folds child t's new value into the chance node's expectation. */
function refreshChance(c: Chance, t: number, child: Decision): void {
  const w = c.weight[t];
  let old = c.childValue[t];
  if (!old) {
    old = c.childValue[t] = new Float64Array(MAX_PLAYERS);
    c.sumW += w;
  } else for (let p = 0; p < players; p++) c.acc[p] -= w * old[p];
  for (let p = 0; p < players; p++) {
    old[p] = child.value[p];
    c.acc[p] += w * old[p];
    c.value[p] = c.acc[p] / c.sumW;
  }
}

export function search(root: GameState, p: SearchParams, seed: number, control?: SearchControl): BotDecision {
  det ??= new GameState();
  scratch ??= new GameState();
  params = p;
  players = root.players;
  const rng = new Rng(seed);
  const top = new Decision(root.currentPlayer);
  expand(top, root, MAX_MOVES);
  let stopped = false;
  let it = 0;
  const start = root.h[H_BAGPOS] + 1;
  if (top.count > 1) {
    for (; it < p.iterations; it++) {
      if ((it & 3) === 0 && control?.shouldStop()) {
        stopped = true;
        break;
      }
      const s = det.copyFrom(root);
      const bag = s.bag;
      for (let i = BAG_SIZE - 1; i > start; i--) {
        const j = start + rng.below(i - start + 1);
        const t = bag[i];
        bag[i] = bag[j];
        bag[j] = t;
      }
      let node = top;
      let depth = 0;
      for (;;) {
        node.visits++;
        const i = select(node);
        pathNodes[depth] = node;
        pathIdx[depth++] = i;
        applyPacked(s, node.moves[i]);
        let c = node.chance[i];
        if (!c) {
          // New move: its static value stands until the first reply below it is known.
          c = node.chance[i] = new Chance();
          for (let t = 0; t < TILE_TYPES; t++) c.weight[t] = s.remaining[t];
          discardUnplaceable(s);
          staticValue(s, c.value);
          if (bagEmpty(s) || depth > p.maxDepth) break;
        } else {
          discardUnplaceable(s);
          if (bagEmpty(s) || depth > p.maxDepth) break; // a cut line: its chance value is static
        }
        const t = s.currentTile;
        let child = c.children[t];
        if (!child) {
          // New decision node: expand it and take its best prior move's static value, so every
          // searched move is judged at the same depth (its replies included).
          child = c.children[t] = new Decision(s.currentPlayer);
          expand(child, s, p.innerMoves);
          child.visits = 1;
          pathNodes[depth] = child;
          pathIdx[depth++] = 0;
          applyPacked(s, child.moves[0]);
          const cc = (child.chance[0] = new Chance());
          for (let u = 0; u < TILE_TYPES; u++) cc.weight[u] = s.remaining[u];
          discardUnplaceable(s);
          staticValue(s, cc.value);
          break;
        }
        node = child;
      }
      // Back up: decision nodes take their best move's value; chance nodes re-weigh the child.
      for (let d = depth - 1; d >= 0; d--) {
        const nd = pathNodes[d];
        nd.n[pathIdx[d]]++;
        refreshDecision(nd);
        if (d > 0) {
          const parent = pathNodes[d - 1];
          const pc = parent.chance[pathIdx[d - 1]]!;
          const t = pc.children.indexOf(nd);
          refreshChance(pc, t, nd);
        }
      }
    }
  }
  // Most visited root move; ties by value; an unsearched root keeps the prior order.
  let best = 0;
  const off = offset(top);
  for (let i = 1; i < top.count; i++) {
    if (top.n[i] > top.n[best] || (top.n[i] === top.n[best] && q(top, i, off) > q(top, best, off))) best = i;
  }
  const m = top.moves[best];
  return { fi: moveFi(m), r: moveR(m), spot: moveSpot(m), iterations: it, stopped };
}
