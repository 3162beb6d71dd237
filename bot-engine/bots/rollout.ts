// `medium`, `hard`, `expert`: determinized paired rollouts with sequential halving.
//
// The information set is sampled, never the real order: each determinization shuffles the tiles
// after the current one from the remaining multiset with the search's own seeded RNG (and
// chooseMove has already sorted the undrawn bag, so there is no order to peek at).
//
// - Candidates: the best `candidates` root moves by the one-ply static evaluation (what
//   `heuristic` would play first) — progressive narrowing instead of widening.
// - Each candidate is played out on the SAME determinizations (common random numbers): the move,
//   then `horizon` / 2 rounds with every player on the heuristic policy, then the static evaluation
//   of the mover's lead (exact scores if the bag runs out). Pairing removes most of the luck of
//   the draw from the difference between two candidates.
// - Sequential halving: after each round the better half survives and the next round doubles
//   the determinizations per candidate, so the budget goes to the moves that matter.
// - Budget = rollouts (iterations), fixed per level, under a ceiling on work (moves scored,
//   weighted by what one costs at the table): the move is a pure function of (view, level,
//   seed), and its CPU stays within the level's budget at any table. `control` is polled before every rollout; on a stop, the determinizations every
//   surviving candidate played decide (a partly played one is dropped), else the best prior.

import { GameState, H_BAGLEN, H_BAGPOS, MAX_SEATS } from '../state.ts';
import { bagEmpty, discardUnplaceable, finalScoring, sectionEnd } from '../rules.ts';
import { Rng, mixSeed } from '../rng.ts';
import { evaluate, finalValues, margin } from './evaluate.ts';
import { MAX_MOVES, applyPacked, argmax, listMoves, moveFi, moveR, moveSpot, scoreMoves } from './moves.ts';
import type { BotDecision, SearchControl } from './index.ts';

export interface RolloutParams {
  /** Root moves (best by the static evaluation) that enter the first round. */
  candidates: number;
  /** Determinizations per candidate in the first round; doubled each round as the field halves. */
  samples: number;
  /** Plies played out after the candidate move (every player on the heuristic policy) in a
   * 2-player game, i.e. horizon / 2 rounds; with more players the same number of rounds (at
   * least one), so a rollout always stops at the same seat and reaches the mover's next move. */
  horizon: number;
  /** Sequential halving: after each round keep the better half (false: one flat round). */
  halving: boolean;
  /** Other budgets at 3 to 6 players, where a round is longer (default: the ones above). */
  byPlayers?: { readonly [players in 3 | 4 | 5 | 6]?: Readonly<TableBudget> };
  /** Ceiling on the search's work (see `workOf`): the level's CPU budget in a unit every machine
   * counts alike, so the move stays a pure function of (view, level, seed). Each halving round
   * may spend its share; a round that would pass it plays fewer determinizations (at least one). */
  maxWork?: number;
}

/** What a level may spend differently at a bigger table. */
export type TableBudget = Partial<Pick<RolloutParams, 'candidates' | 'samples' | 'horizon'>>;

/** The budgets a search uses at a table of `players`. */
export function budgetAt(p: RolloutParams, players: number): RolloutParams {
  const own = players > 2 ? p.byPlayers?.[players as 3 | 4 | 5 | 6] : undefined;
  return own ? { ...p, ...own } : p;
}

const rootMoves = new Int32Array(MAX_MOVES);
const rootScores = new Float64Array(MAX_MOVES);
const moves = new Int32Array(MAX_MOVES);
const scores = new Float64Array(MAX_MOVES);
const values = new Float64Array(MAX_SEATS);
let det: GameState | null = null;
/** Work done so far by the running search (the root's ranking and every rollout ply). */
let work = 0;

/** Work of scoring `moves` moves at a table of `players` with `placed` tiles on the board. The
 * static evaluation judges every seat and walks every feature, and each walk grows with the
 * board too (fields, followers met), so a move's CPU grows with the seats and faster than the
 * board: measured by npm run bench:bots, from ≈ 0.15 µs a move at two players on a young board
 * to ≈ 2 µs at six near the end. One unit is ≈ 3.5–4.5 ns of CPU at any table, option and
 * point of the game (the mean over a search; single positions vary more). */
export function workOf(moves: number, players: number, placed: number): number {
  return (moves * (players + 4) * (placed + 20) * (placed + 150)) / 150;
}

let order: GameState | null = null;
let scratch: GameState | null = null;

/** Plies a rollout plays after the candidate: `horizon` counts 2-player plies, so it plays
 * horizon / 2 rounds (horizon × players / 2 plies, rounded up), and at least one round. */
export function rolloutPlies(horizon: number, players: number): number {
  return Math.max(players, Math.ceil((horizon * players) / 2));
}

/** Plays `move` then `p.horizon` heuristic plies (scaled to rounds) on a copy of `order`; the
 * mover's lead at the leaf. */
function playout(order: GameState, move: number, p: RolloutParams, seed: number, me: number, players: number): number {
  const plies = rolloutPlies(p.horizon, players);
  const d = det!.copyFrom(order);
  applyPacked(d, move);
  discardUnplaceable(d);
  for (let h = 0; h < plies && !bagEmpty(d); h++) {
    const n = listMoves(d, moves);
    work += workOf(n, players, d.placed);
    scoreMoves(d, moves, n, scores, scratch!, 'heuristic');
    applyPacked(d, moves[argmax(scores, n, new Rng(mixSeed(seed, h)))]);
    discardUnplaceable(d);
  }
  if (bagEmpty(d)) {
    finalScoring(d);
    finalValues(d, values);
  } else evaluate(d, values);
  return margin(values, players, me);
}

/** Copies `root` into `order` and shuffles the tiles after the current one (one sample of the
 * information set: the multiset is known, the order is not). */
function determinize(order: GameState, root: GameState, rng: Rng): void {
  order.copyFrom(root);
  const bag = order.bag;
  // Each section of the bag (the River's tiles come before the land tiles) is shuffled apart.
  for (let start = root.h[H_BAGPOS] + 1; start < root.h[H_BAGLEN]; ) {
    const end = sectionEnd(root, start);
    for (let i = end - 1; i > start; i--) {
      const j = start + rng.below(i - start + 1);
      const t = bag[i];
      bag[i] = bag[j];
      bag[j] = t;
    }
    start = end;
  }
}

function ensureScratch(): void {
  det ??= new GameState();
  order ??= new GameState();
  scratch ??= new GameState();
}

/**
 * Mean rollout value (the mover's lead) of each of `moves` over `samples` paired
 * determinizations: the yardstick research/regret.ts measures a level's choices against, and
 * game analysis (bot-engine/analysis.ts) judges a played move by.
 */
export function rolloutValues(root: GameState, moves: readonly number[], horizon: number, samples: number, seed: number, control?: SearchControl): number[] {
  ensureScratch();
  const rng = new Rng(seed);
  const p: RolloutParams = { candidates: moves.length, samples, horizon, halving: false };
  const sum = moves.map(() => 0);
  for (let s = 0; s < samples; s++) {
    // Polled per determinization: a caller that stops it must discard the (partial) means.
    if (control?.shouldStop()) break;
    determinize(order!, root, rng);
    for (let a = 0; a < moves.length; a++) sum[a] += playout(order!, moves[a], p, mixSeed(seed, s), root.currentPlayer, root.players);
  }
  return sum.map((v) => v / samples);
}

/** Every legal root move, best first by the one-ply static evaluation (ties by move number). */
export function rankedRootMoves(root: GameState): number[] {
  ensureScratch();
  const total = listMoves(root, rootMoves);
  work += workOf(total, root.players, root.placed);
  scoreMoves(root, rootMoves, total, rootScores, scratch!, 'heuristic');
  const idx = Array.from({ length: total }, (_, i) => i);
  idx.sort((a, b) => rootScores[b] - rootScores[a] || rootMoves[a] - rootMoves[b]);
  return idx.map((i) => rootMoves[i]);
}

/** The levels' budgets; frozen, so no caller can make a level play differently by mutating it. */
export const SEARCH_LEVELS: Readonly<Record<'medium' | 'hard' | 'expert', Readonly<RolloutParams>>> = Object.freeze({
  // Work ceilings: each level's p95 CPU budget (bots/levels.ts) at ≈ 4 ns a unit, less a margin
  // for positions dearer than the mean and slower cores. They seldom bind at two players in the
  // base game and bind most at big tables with every option, where a ply has more moves and each
  // move more seats to judge. Measured: npm run bench:bots (docs/BENCHMARKS.md).
  medium: Object.freeze({ candidates: 4, samples: 2, horizon: 2, halving: true, maxWork: 8_000_000 }),
  hard: Object.freeze({ candidates: 8, samples: 4, horizon: 2, halving: true, maxWork: 24_000_000 }),
  expert: Object.freeze({
    candidates: 12,
    samples: 8,
    horizon: 4,
    halving: true,
    maxWork: 85_000_000,
    // Five and six players: two rounds are 10–12 heuristic plies, where the paired rollouts drift
    // apart (regret against a far larger search no lower than hard's; at five players, games
    // at par with hard): one round. Five players spend the second round's CPU on twice the
    // determinizations; at six, every option, the ceiling leaves two.
    byPlayers: Object.freeze({
      3: Object.freeze({ samples: 5 }),
      4: Object.freeze({ samples: 4 }),
      5: Object.freeze({ samples: 4, horizon: 2 }),
      6: Object.freeze({ samples: 2, horizon: 2 }),
    }),
  }),
});

export function searchMove(root: GameState, level: 'medium' | 'hard' | 'expert', seed: number, control?: SearchControl): BotDecision {
  return rolloutSearch(root, SEARCH_LEVELS[level], seed, control);
}

export function rolloutSearch(root: GameState, params: RolloutParams, seed: number, control?: SearchControl): BotDecision {
  ensureScratch();
  work = 0;
  const me = root.currentPlayer;
  const players = root.players;
  const p = budgetAt(params, players);
  const ranked = rankedRootMoves(root);
  const k = Math.min(p.candidates, ranked.length);
  const sum = new Float64Array(k);
  const alive = Array.from({ length: k }, (_, c) => c);
  const rng = new Rng(seed);
  let it = 0;
  let stopped = false;
  let samples = p.samples;
  let sampleIndex = 0;
  let roundsLeft = p.halving ? halvingRounds(k) : 1;
  while (alive.length > 1 && !stopped) {
    // One round: every surviving candidate on the same fresh determinizations (paired), as many
    // as the level's samples, or as this round's share of the work ceiling allows.
    const roundStart = work;
    const share = p.maxWork === undefined ? Infinity : (p.maxWork - work) / roundsLeft;
    for (let s = 0; s < samples && !stopped; s++, sampleIndex++) {
      if (s > 0 && work - roundStart + (work - roundStart) / s > share) break;
      determinize(order!, root, rng);
      const partial = new Float64Array(alive.length);
      for (let a = 0; a < alive.length; a++) {
        if (control?.shouldStop()) {
          stopped = true;
          break;
        }
        partial[a] = playout(order!, ranked[alive[a]], p, mixSeed(seed, sampleIndex), me, players);
        it++;
      }
      // Count a determinization only if every candidate played it, to keep the pairing.
      if (!stopped) for (let a = 0; a < alive.length; a++) sum[alive[a]] += partial[a];
    }
    if (stopped || !p.halving) break;
    alive.sort((x, y) => sum[y] - sum[x] || x - y);
    alive.length = Math.ceil(alive.length / 2);
    samples *= 2;
    roundsLeft--;
  }
  let best = alive[0];
  for (const c of alive) if (sum[c] > sum[best]) best = c;
  const m = ranked[best];
  return { fi: moveFi(m), r: moveR(m), spot: moveSpot(m), iterations: it, stopped };
}

/** Rounds of sequential halving from `k` candidates down to one. */
function halvingRounds(k: number): number {
  let rounds = 0;
  for (let alive = k; alive > 1; alive = Math.ceil(alive / 2)) rounds++;
  return Math.max(1, rounds);
}

/** The last search's work (its ranking of the root's moves and every rollout ply). */
export function lastSearchWork(): number {
  return work;
}
