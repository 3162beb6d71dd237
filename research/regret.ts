// How much a search setting loses per move against a far larger search:
// `node research/regret.ts [--games 6] [--every 4] [--oracle-samples 128] [--oracle-candidates 20]
// [--oracle-horizon 4] [--seeds 3] [--players 2] [--rules innsCathedrals,river,abbot] [--positions-seed regret]
// [--configs '{"name":{"candidates":12,"samples":4,"horizon":4,"halving":true},…}']
// [--oracle-cache FILE]` (the oracle's values, reused when its settings and the positions match: it is the slow part).
//
// Settings at one horizon share one policy and one evaluation; what separates them is how much
// noise is left in their choice. So: in each position (every `every`-th turn of `hard` self-play
// games at `players` with `rules`), the oracle plays the `oracle-candidates` best root moves out
// `oracle-samples` times on paired determinizations (horizon `oracle-horizon`, 4 = two rounds as
// expert) and keeps each move's mean lead. A
// setting's regret in that position = the oracle's best value − the oracle's value of the move the
// setting picked, averaged over `seeds` search seeds. Minutes instead of the hours a 400-game
// tournament takes, and it ranks settings at equal CPU; it cannot see bias all settings share.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type RolloutParams, SEARCH_LEVELS, rankedRootMoves, rolloutSearch, rolloutValues } from '../bot-engine/bots/rollout.ts';
import { packMove } from '../bot-engine/bots/moves.ts';
import { isBotLevel } from '../bot-engine/bots/levels.ts';
import { mixSeed } from '../bot-engine/rng.ts';
import { selfPlayPositions } from '../bench/lib/positions.ts';
import { parseRules } from '../bench/tournament.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '6' },
    every: { type: 'string', default: '4' },
    'oracle-samples': { type: 'string', default: '128' },
    'oracle-candidates': { type: 'string', default: '20' },
    'oracle-horizon': { type: 'string', default: '4' },
    players: { type: 'string', default: '2' },
    rules: { type: 'string' },
    seeds: { type: 'string', default: '3' },
    configs: { type: 'string' },
    'oracle-cache': { type: 'string' },
    /** Level of the self-play games the positions come from, and their seed (another seed: other games). */
    'positions-from': { type: 'string', default: 'hard' },
    'positions-seed': { type: 'string', default: 'regret' },
  },
});
const [games, every, oracleSamples, oracleCandidates, oracleHorizon, seeds, players] = ['games', 'every', 'oracle-samples', 'oracle-candidates', 'oracle-horizon', 'seeds', 'players'].map((k) => {
  const n = Number(values[k as keyof typeof values]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${k} must be a positive integer`);
  return n;
});
if (players < 2 || players > 6) throw new Error('--players must be 2 to 6');
const rules = values.rules === undefined ? undefined : parseRules(values.rules);
const configs: Record<string, RolloutParams> = values.configs ? JSON.parse(values.configs) : SEARCH_LEVELS;
for (const [name, c] of Object.entries(configs)) {
  if (c.candidates > oracleCandidates) throw new Error(`${name}: ${c.candidates} candidates, more than the oracle's ${oracleCandidates}`);
}

const from = values['positions-from']!;
if (!isBotLevel(from)) throw new Error(`--positions-from: unknown level ${from}`);
const positionsSeed = values['positions-seed']!;
const positions = selfPlayPositions(games, every, from, positionsSeed, players, rules);
const oracle = oracleValues();
const names = ['heuristic', ...Object.keys(configs)];
/** Per setting: regret in each position (mean over seeds), share of oracle-best picks, thread
 * CPU of each search and the rollouts it played. */
const regret = new Map(names.map((n) => [n, new Float64Array(positions.length)]));
const bestPicked = new Map(names.map((n) => [n, 0]));
const cpuMs = new Map<string, number[]>(names.map((n) => [n, []]));
const rollouts = new Map(names.map((n) => [n, 0]));
const started = performance.now();
for (const [i, { view, seed }] of positions.entries()) {
  const { moves, value } = oracle[i];
  const best = Math.max(...value);
  const judge = (name: string, move: number, weight: number) => {
    const v = value[moves.indexOf(move)];
    regret.get(name)![i] += weight * (best - v);
    if (v === best) bestPicked.set(name, bestPicked.get(name)! + weight / positions.length);
  };
  judge('heuristic', moves[0], 1);
  for (const [name, c] of Object.entries(configs)) {
    for (let k = 0; k < seeds; k++) {
      const t0 = process.threadCpuUsage();
      const d = rolloutSearch(view, c, mixSeed(seed, k));
      const t = process.threadCpuUsage(t0);
      cpuMs.get(name)!.push((t.user + t.system) / 1000);
      rollouts.set(name, rollouts.get(name)! + d.iterations / seeds / positions.length);
      judge(name, packMove(d.fi, d.r, d.spot), 1 / seeds);
    }
  }
  if (process.stderr.isTTY) process.stderr.write(`\r${i + 1}/${positions.length} positions`);
}
const first = names[1];
console.log(
  `${positions.length} positions from ${games} ${from} self-play games (seed ${positionsSeed}), ${players} players, rules ${JSON.stringify(rules ?? 'default')}; oracle: ${oracleCandidates} moves × ${oracleSamples} determinizations, horizon ${oracleHorizon}; ${seeds} seeds per setting; ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`setting | mean regret (points of lead) | vs ${first}, paired (± 95%) | oracle-best move | CPU ms/move mean / p95 | rollouts/move`);
for (const n of names) {
  const r = regret.get(n)!;
  const diff = r.map((x, i) => x - regret.get(first)![i]);
  const cpu = n === 'heuristic' ? '-' : cpuText(cpuMs.get(n)!);
  const played = n === 'heuristic' ? '-' : rollouts.get(n)!.toFixed(0);
  console.log(
    `${n} | ${mean(r).toFixed(3)} | ${n === first ? '-' : `${signed(mean(diff))} ± ${(1.96 * standardError(diff)).toFixed(3)}`} | ${(100 * bestPicked.get(n)!).toFixed(0)}% | ${cpu} | ${played}`,
  );
}

function cpuText(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))];
  return `${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(0)} / ${p95.toFixed(0)}`;
}

function mean(xs: Float64Array): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function standardError(xs: Float64Array): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
}

/** The oracle's candidate moves and mean values per position, from the cache when it matches. */
function oracleValues(): { moves: number[]; value: number[] }[] {
  // The positions themselves are in the key: the self-play games that give them change whenever
  // the bots do, and an oracle of other positions must not be read (it judged other moves).
  const positionsHash = createHash('sha256').update(JSON.stringify(positions)).digest('base64url');
  const key = JSON.stringify({ oracleSamples, oracleCandidates, oracleHorizon, positionsHash });
  const cache = values['oracle-cache'];
  if (cache && existsSync(cache)) {
    const saved = JSON.parse(readFileSync(cache, 'utf8'));
    if (saved.key === key) return saved.positions;
  }
  const result = positions.map(({ view, seed }, i) => {
    if (process.stderr.isTTY) process.stderr.write(`\roracle ${i + 1}/${positions.length}`);
    const moves = rankedRootMoves(view).slice(0, oracleCandidates);
    return { moves, value: rolloutValues(view, moves, oracleHorizon, oracleSamples, mixSeed(seed, 0x0dac1e)) };
  });
  if (cache) writeFileSync(cache, JSON.stringify({ key, positions: result }));
  return result;
}
