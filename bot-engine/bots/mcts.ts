// `medium`, `hard`, `expert`: information-set Monte-Carlo tree search.
//
// - Every iteration samples a determinization: the undrawn tiles after the current one are
//   shuffled from the remaining multiset with the search's own seeded RNG. The real order is
//   never looked at (chooseMove hands us a copy whose undrawn bag is sorted).
// - Decision nodes belong to (path of moves, drawn tile): after a move, the next node is picked
//   by the tile the determinization deals, so one tree serves all sampled orders (ISMCTS with
//   chance outcomes keyed by tile type). Frontier slots are stable along a path, because the
//   board depends only on the moves, not on the sampled order.
// - A node's moves get priors from the static evaluation of the position after each move
//   (one ply, heuristic.ts's judgement) the second time the node is reached; progressive
//   widening lets only the best ⌈k0 + a·√visits⌉ of them compete, with UCT, the prior counting
//   as `priorVisits` virtual visits.
// - Leaves are judged by the static evaluation (no random rollouts), turned into a per-player
//   value in [0, 1] by a logistic of that player's lead; each node maximises its own player's
//   value (max^n, which is plain minimax with 2 players).
// - Budgets are iteration counts, so the move is a function of (view, level, seed); the control
//   only caps the time and is reported through `stopped`.

import { BAG_SIZE, GameState, H_BAGPOS } from '../state.ts';
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

export const SEARCH_LEVELS: Record<'medium' | 'hard' | 'expert', SearchParams> = {
  medium: { iterations: 400, innerMoves: 10, k0: 3, widen: 0.6, c: 0.35, priorVisits: 4, maxDepth: 3, scale: 12 },
  hard: { iterations: 1000, innerMoves: 12, k0: 3, widen: 0.6, c: 0.35, priorVisits: 4, maxDepth: 4, scale: 12 },
  expert: { iterations: 2000, innerMoves: 14, k0: 3, widen: 0.6, c: 0.35, priorVisits: 4, maxDepth: 5, scale: 12 },
};

class Node {
  readonly player: number;
  visits = 0;
  count = 0;
  moves: Int32Array | null = null;
  prior: Float64Array | null = null;
  n: Int32Array | null = null;
  w: Float64Array | null = null;
  children: Map<number, Node> | null = null;
  constructor(player: number) {
    this.player = player;
  }
}

const allMoves = new Int32Array(MAX_MOVES);
const allScores = new Float64Array(MAX_MOVES);
const values = new Float64Array(4);
const leaf = new Float64Array(4);
const pathNodes: Node[] = [];
const pathIdx = new Int32Array(64);
let det: GameState | null = null;
let scratch: GameState | null = null;

function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** Computes the node's moves and priors at `s` (its tile is current), keeping the best `keep`. */
function expand(node: Node, s: GameState, keep: number, scale: number): void {
  const total = listMoves(s, allMoves);
  scoreMoves(s, allMoves, total, allScores, scratch!, 'heuristic');
  const order = Array.from({ length: total }, (_, i) => i);
  order.sort((a, b) => allScores[b] - allScores[a] || allMoves[a] - allMoves[b]);
  const count = Math.min(keep, total);
  node.count = count;
  node.moves = new Int32Array(count);
  node.prior = new Float64Array(count);
  node.n = new Int32Array(count);
  node.w = new Float64Array(count);
  node.children = new Map();
  for (let i = 0; i < count; i++) {
    node.moves[i] = allMoves[order[i]];
    node.prior[i] = logistic(allScores[order[i]] / scale);
  }
}

function select(node: Node, p: SearchParams): number {
  const k = Math.min(node.count, p.k0 + Math.floor(p.widen * Math.sqrt(node.visits)));
  const logN = Math.log(node.visits + 1);
  const n = node.n!;
  const w = node.w!;
  const prior = node.prior!;
  let best = 0;
  let bestValue = -Infinity;
  for (let i = 0; i < k; i++) {
    const v = (w[i] + prior[i] * p.priorVisits) / (n[i] + p.priorVisits) + p.c * Math.sqrt(logN / (n[i] + 1));
    if (v > bestValue) {
      bestValue = v;
      best = i;
    }
  }
  return best;
}

/** Leaf value per player: logistic of each player's lead (exact once the game is over). */
function leafValues(s: GameState, players: number, scale: number): void {
  if (bagEmpty(s)) {
    finalScoring(s);
    finalValues(s, values);
  } else evaluate(s, values);
  for (let q = 0; q < players; q++) leaf[q] = logistic(margin(values, players, q) / scale);
}

export function mctsMove(root: GameState, level: 'medium' | 'hard' | 'expert', seed: number, control?: SearchControl): BotDecision {
  return search(root, SEARCH_LEVELS[level], seed, control);
}

export function search(root: GameState, p: SearchParams, seed: number, control?: SearchControl): BotDecision {
  det ??= new GameState();
  scratch ??= new GameState();
  const rng = new Rng(seed);
  const players = root.players;
  const top = new Node(root.currentPlayer);
  expand(top, root, MAX_MOVES, p.scale);
  top.visits = 1;
  let stopped = false;
  let it = 0;
  const start = root.h[H_BAGPOS] + 1;
  if (top.count > 1) {
    for (; it < p.iterations; it++) {
      if ((it & 7) === 0 && control?.shouldStop()) {
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
        if (node.moves === null) {
          if (node.visits === 0) {
            node.visits = 1;
            leafValues(s, players, p.scale);
            break;
          }
          expand(node, s, p.innerMoves, p.scale);
        }
        node.visits++;
        const i = select(node, p);
        pathNodes[depth] = node;
        pathIdx[depth++] = i;
        applyPacked(s, node.moves![i]);
        discardUnplaceable(s);
        if (bagEmpty(s) || depth > p.maxDepth) {
          leafValues(s, players, p.scale);
          break;
        }
        const key = i * TILE_TYPES + s.currentTile;
        let child = node.children!.get(key);
        if (!child) node.children!.set(key, (child = new Node(s.currentPlayer)));
        node = child;
      }
      for (let d = 0; d < depth; d++) {
        const nd = pathNodes[d];
        const i = pathIdx[d];
        nd.n![i]++;
        nd.w![i] += leaf[nd.player];
      }
    }
  }
  // Most visited root move; ties (and an unsearched root) fall back on the prior order.
  let best = 0;
  for (let i = 1; i < top.count; i++) if (top.n![i] > top.n![best]) best = i;
  const m = top.moves![best];
  return { fi: moveFi(m), r: moveR(m), spot: moveSpot(m), iterations: it, stopped };
}
