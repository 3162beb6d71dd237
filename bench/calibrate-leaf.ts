// Fits leaf weights (LeafWeights in bot-engine/bots/evaluate.ts): what each term of the static
// evaluation is worth in final points when a rollout stops on it.
// `node bench/calibrate-leaf.ts [--games 3000] [--level heuristic] [--players 2] [--seed calib] [--out FILE]`
//
// The static evaluation was tuned to rank the moves of one ply, where every candidate is judged
// at the same point of the same game. A rollout's leaf is judged as a prediction of the final
// lead instead, so: in every position of `games` self-play games, least squares of
//   final lead − score lead  ≈  c + Σ_t w_t(share) · (term lead)_t,   w_t(share) = end_t + (start_t − end_t) · share
// where a lead is the player to move's value minus the mean of the others' and `share` is the
// part of the 72 tiles still to come. Every 4th game is held out; the error there is printed for
// predicting no change, for the static evaluation and for the fit. A search tries the weights with
// TESSERA_SEARCH_PARAMS='{"expert":{"leaf":<the LeafWeights printed>}}' (bench/tournament.ts).

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type LeafWeights, TERMS, TERM_SCORE, evaluateTerms } from '../bot-engine/bots/evaluate.ts';
import { type BotLevel, chooseMove, isBotLevel } from '../bot-engine/bots/index.ts';
import { newGame } from '../bot-engine/game.ts';
import { bagEmpty, discardUnplaceable, finalScoring, hideBag, place } from '../bot-engine/rules.ts';
import { fnv1a, mixSeed } from '../bot-engine/rng.ts';
import { H_SCORE } from '../bot-engine/state.ts';
import { TOTAL_TILES } from '../bot-engine/tiles.ts';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '3000' },
    level: { type: 'string', default: 'heuristic' },
    players: { type: 'string', default: '2' },
    seed: { type: 'string', default: 'calib' },
    out: { type: 'string' },
  },
});
const games = Number(args.games);
const players = Number(args.players);
if (!Number.isInteger(games) || games < 4) throw new Error('--games must be an integer ≥ 4');
if (![2, 3, 4].includes(players)) throw new Error('--players must be 2, 3 or 4');
if (!isBotLevel(args.level!)) throw new Error(`--level: unknown level ${args.level}`);
const level: BotLevel = args.level;

/** The fitted terms: every term but the score, whose weight stays 1. */
const FITTED = Array.from({ length: TERMS }, (_, t) => t).filter((t) => t !== TERM_SCORE);
const TERM_NAMES = ['city', 'road', 'farm', 'monastery', 'score', 'supply', 'followers back'];

interface Sample {
  game: number;
  share: number;
  /** Term leads of the player to move (FITTED order). */
  lead: number[];
  scoreLead: number;
  staticLead: number;
  /** Final lead − score lead, filled at the end of the game. */
  target: number;
}

const lead = (v: ArrayLike<number>, p: number, at = (q: number) => v[q]) => {
  let others = 0;
  for (let q = 0; q < players; q++) if (q !== p) others += at(q);
  return at(p) - others / (players - 1);
};

function selfPlay(): Sample[] {
  const samples: Sample[] = [];
  const value = new Float64Array(4);
  const terms = new Float64Array(4 * TERMS);
  for (let g = 0; g < games; g++) {
    const s = newGame({ players, seed: `${args.seed}:${g}` });
    const game: { sample: Sample; p: number }[] = [];
    for (let turn = 0; !bagEmpty(s); turn++) {
      const view = hideBag(s.clone());
      const p = s.currentPlayer;
      evaluateTerms(view, value, terms);
      const tilesLeft = view.remaining.reduce((a, b) => a + b, 0);
      const scoreLead = lead(terms, p, (q) => terms[q * TERMS + TERM_SCORE]);
      game.push({
        p,
        sample: {
          game: g,
          share: tilesLeft / TOTAL_TILES,
          lead: FITTED.map((t) => lead(terms, p, (q) => terms[q * TERMS + t])),
          scoreLead,
          staticLead: lead(value, p) - scoreLead,
          target: 0,
        },
      });
      const d = chooseMove(view, level, mixSeed(fnv1a(`${args.seed}:${g}`), turn, p));
      place(s, d.fi, d.r, d.spot);
      discardUnplaceable(s);
    }
    finalScoring(s);
    for (const { sample, p } of game) {
      sample.target = lead(s.h, p, (q) => s.h[H_SCORE + q]) - sample.scoreLead;
      samples.push(sample);
    }
  }
  return samples;
}

const features = (x: Sample) => [1, ...x.lead.map((v) => v * (1 - x.share)), ...x.lead.map((v) => v * x.share)];

/** Ordinary least squares by the normal equations (a handful of unknowns). */
function leastSquares(rows: Sample[]): number[] {
  const n = features(rows[0]).length;
  const a = Array.from({ length: n }, () => new Float64Array(n + 1));
  for (const x of rows) {
    const f = features(x);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) a[i][j] += f[i] * f[j];
      a[i][n] += f[i] * x.target;
    }
  }
  for (let i = 0; i < n; i++) {
    let pivot = i;
    for (let k = i + 1; k < n; k++) if (Math.abs(a[k][i]) > Math.abs(a[pivot][i])) pivot = k;
    [a[i], a[pivot]] = [a[pivot], a[i]];
    if (Math.abs(a[i][i]) < 1e-9) throw new Error(`term ${i} never varies: play more games`);
    for (let k = 0; k < n; k++) {
      if (k === i) continue;
      const f = a[k][i] / a[i][i];
      for (let j = i; j <= n; j++) a[k][j] -= f * a[i][j];
    }
  }
  return a.map((row, i) => row[n] / row[i]);
}

const started = performance.now();
const samples = selfPlay();
const train = samples.filter((x) => x.game % 4 !== 0);
const held = samples.filter((x) => x.game % 4 === 0);
const coef = leastSquares(train);
const k = FITTED.length;
const start: number[] = new Array(TERMS).fill(1);
const end: number[] = new Array(TERMS).fill(1);
FITTED.forEach((t, i) => {
  end[t] = round(coef[1 + i]);
  start[t] = round(coef[1 + k + i]);
});
const fitted: LeafWeights = { start, end };

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
const predictors: Record<string, (x: Sample) => number> = {
  'no change': () => 0,
  'static evaluation': (x) => x.staticLead,
  fit: (x) => features(x).reduce((sum, f, i) => sum + f * coef[i], 0),
};
const thirds = [
  ['first third', 2 / 3, 1.01],
  ['middle third', 1 / 3, 2 / 3],
  ['last third', 0, 1 / 3],
] as const;
const error = Object.fromEntries(
  Object.entries(predictors).map(([name, predict]) => {
    const mse = (rows: Sample[]) => rows.reduce((sum, x) => sum + (x.target - predict(x)) ** 2, 0) / rows.length;
    return [name, { all: round(mse(held)), ...Object.fromEntries(thirds.map(([t, lo, hi]) => [t, round(mse(held.filter((x) => x.share >= lo && x.share < hi)))])) }];
  }),
);

console.log(`${games} ${level} self-play games, ${players} players: ${train.length} positions fitted, ${held.length} held out (${((performance.now() - started) / 1000).toFixed(0)} s)`);
console.log('\nweight of each term (first tile → last tile):');
for (const t of FITTED) console.log(`  ${TERM_NAMES[t].padEnd(15)} ${fitted.start[t].toFixed(3)} → ${fitted.end[t].toFixed(3)}`);
console.log(`  (constant: ${coef[0].toFixed(2)} points to the player to move)`);
console.log('\nheld-out mean squared error of the final lead − score lead (points²):');
console.log(`  ${''.padEnd(26)} ${['all', ...thirds.map(([t]) => t)].map((h) => h.padStart(13)).join('')}`);
for (const [name, e] of Object.entries(error)) console.log(`  ${name.padEnd(26)} ${Object.values(e).map((v) => v.toFixed(1).padStart(13)).join('')}`);
// How far the final lead strays from the static evaluation's, by tiles still to come: the
// spread a 2-player search that plays to win (winValue in bot-engine/bots/rollout.ts) assumes.
const spread = Array.from({ length: Math.ceil(TOTAL_TILES / 8) }, (_, b) => {
  const rows = samples.filter((x) => Math.floor((x.share * TOTAL_TILES) / 8) === b);
  const mse = rows.reduce((sum, x) => sum + (x.target - x.staticLead) ** 2, 0) / Math.max(rows.length, 1);
  return { tilesLeft: `${8 * b}–${8 * b + 7}`, positions: rows.length, pointsSq: round(mse), perTile: round(mse / (8 * b + 3.5)) };
});
console.log('\nspread of the final lead around the static evaluation\'s, by tiles left (points²; per tile):');
for (const r of spread) console.log(`  ${r.tilesLeft.padEnd(7)} ${r.pointsSq.toFixed(1).padStart(8)} ${r.perTile.toFixed(2).padStart(8)}   (${r.positions} positions)`);
console.log(`\nLeafWeights: ${JSON.stringify(fitted)}`);
if (args.out) writeFileSync(args.out, JSON.stringify({ games, level, players, seed: args.seed, positions: { fitted: train.length, heldOut: held.length }, weights: fitted, constant: round(coef[0]), heldOutError: error, staticSpread: spread }, null, 2) + '\n');
