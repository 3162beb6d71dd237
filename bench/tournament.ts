// Bot tournament: `npm run tournament -- --a expert --b heuristic --games 400 [--workers N]
// [--seed S] [--players P] [--mixed] [--rules tinyCity=true,farmers=2nd,innsCathedrals,river,abbot] [--max-minutes M]
// [--out FILE] [--no-ladder] [--fresh]`.
//
// Plays seat-swapped pairs of games on one bag seed each (with more than two players: A in one
// seat and B in the others; `--mixed`: A in every other seat, then in the seats B had), in parallel on a fixed-size piscina
// pool (runs straight from TypeScript: no build needed), shows progress, prints the result, writes
// it as JSON under docs/tournaments/ and rebuilds the ladder table in docs/BOTS.md from every JSON
// result there.
//
// Long runs survive interruption: every finished pair is appended to `<out>.checkpoint.jsonl`, and
// the same command run again resumes from it, or extends it with more games (lib/resumable.ts).
// `--fresh` discards it.

import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Piscina } from 'piscina';
import { BOT_LEVELS, type BotLevel, isBotLevel } from '../bot-engine/bots/index.ts';
import { EXPANSION_KEYS, type ExpansionKey, normalizeRules } from '../bot-engine/game.ts';
import type { Rules } from '../bot-engine/rules.ts';
import { botParams, Checkpoint, playBounded } from './lib/resumable.ts';
import { writeMarkedSection } from './report.ts';
import type { PairResult, PairTask } from './tournament-worker.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

export interface TournamentSummary {
  a: BotLevel;
  b: BotLevel;
  games: number;
  pairs: number;
  players: number;
  /** A took every other seat (then the others) instead of one: par is ½, not 1 / players. */
  mixed?: boolean;
  rules: Rules;
  seed: string;
  workers: number;
  winsA: number;
  draws: number;
  winsB: number;
  /** A's score per game: win 1, draw ½ (a draw = A tied for first). */
  winRate: number;
  ci95: [number, number];
  elo: number;
  eloCi95: [number, number];
  meanScoreA: number;
  meanScoreB: number;
  /** Mixed tables: the share of (A seat, B seat) pairs in which A scored more (tie ½), with the
   * 95 % interval over the seat-swapped pairs of games, and the mean place of A's and B's seats. */
  seatPairs?: { rate: number; ci95: [number, number] };
  meanPlace?: { a: number; b: number };
  /** Wall ms per move, and thread-CPU ms per move (the better measure on a shared machine). */
  ms: Record<'a' | 'b', { mean: number; p95: number; max: number; moves: number }>;
  cpuMs?: Record<'a' | 'b', { mean: number; p95: number; max: number; moves: number }>;
  stoppedMoves: number;
  wallSeconds: number;
  date: string;
  node: string;
  /** Games asked for, when a time bound (maxMinutes) cut the run short. */
  requestedGames?: number;
  maxMinutes?: number;
  /** Pairs taken from an interrupted run's checkpoint (wallSeconds counts this run only). */
  resumedPairs?: number;
}

/** What a checkpoint must match to be resumed: the same games with the same bots. */
function checkpointKey(a: BotLevel, b: BotLevel, players: number, rules: Rules, seed: string, mixed: boolean): string {
  return JSON.stringify({ a, b, players, rules, seed, ...(mixed ? { mixed } : {}), params: botParams([a, b], players) });
}

export function parseRules(text: string | undefined): Rules {
  const out: Partial<Rules> = {};
  for (const part of (text ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [k, v] = part.split('=');
    if (k === 'farmers') out.farmers = v as Rules['farmers'];
    else if (k === 'tinyCity' || (EXPANSION_KEYS as readonly string[]).includes(k)) out[k as 'tinyCity' | ExpansionKey] = v === undefined || v === 'true';
    else throw new Error(`unknown rule ${k} (tinyCity, ${EXPANSION_KEYS.join(', ')}: =true|false; farmers=1st|2nd|3rd)`);
  }
  return normalizeRules(out);
}

/** Each expansion's tag in result file names, in the order files and the ladder name them. */
const EXPANSION_TAGS: Record<ExpansionKey, string> = { innsCathedrals: 'ic', river: 'river', abbot: 'abbot' };
const EXPANSIONS = Object.keys(EXPANSION_TAGS) as ExpansionKey[];

/** The rules in a result's file name: "tiny-f3rd", "ic-river-abbot-f3rd". */
export function ruleTag(rules: Rules): string {
  return [...EXPANSIONS.filter((k) => rules[k]).map((k) => EXPANSION_TAGS[k]), ...(rules.tinyCity ? ['tiny'] : []), `f${rules.farmers}`].join('-');
}

/** The rules in the ladder table and the summary line: the expansions on, then the base options. */
export function rulesWords(rules: Rules): string {
  return [...EXPANSIONS.filter((k) => rules[k]), ...(rules.tinyCity ? ['tinyCity'] : []), `farmers ${rules.farmers}`].join(', ');
}

function elo(p: number): number {
  return -400 * Math.log10(1 / p - 1);
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export function timing(ms: number[]): { mean: number; p95: number; max: number; moves: number } {
  const sorted = [...ms].sort((x, y) => x - y);
  const mean = ms.reduce((u, v) => u + v, 0) / Math.max(1, ms.length);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { mean: r(mean), p95: r(quantile(sorted, 0.95)), max: r(sorted[sorted.length - 1] ?? 0), moves: ms.length };
}

type Game = PairResult['games'][number];

function seatsOfA(g: Game): number[] {
  return g.seatsA ?? [g.seatA];
}

/** A's result in one game: 1 if an A seat beat every B seat, ½ if A and B tie for first, else 0. */
function scoreForA(g: Game): number {
  const a = seatsOfA(g);
  const bestA = Math.max(...a.map((p) => g.scores[p]));
  const bestB = Math.max(...g.scores.filter((_, p) => !a.includes(p)));
  return bestA > bestB ? 1 : bestA === bestB ? 0.5 : 0;
}

/** Share of (A seat, B seat) pairs of one game in which A scored more (tie ½). */
function seatPairScore(g: Game): number {
  const a = seatsOfA(g);
  let sum = 0;
  let n = 0;
  for (const p of a) {
    for (let q = 0; q < g.scores.length; q++) {
      if (a.includes(q)) continue;
      sum += g.scores[p] > g.scores[q] ? 1 : g.scores[p] === g.scores[q] ? 0.5 : 0;
      n++;
    }
  }
  return sum / n;
}

/** Each seat's place (1 = best; tied seats share the mean of their places). */
export function places(scores: number[]): number[] {
  return scores.map((s) => 1 + scores.filter((t) => t > s).length + (scores.filter((t) => t === s).length - 1) / 2);
}

/** Mean and 95 % half-width of per-pair samples. */
export function interval(xs: number[]): { mean: number; half: number } {
  const mean = xs.reduce((u, v) => u + v, 0) / Math.max(1, xs.length);
  const variance = xs.reduce((u, v) => u + (v - mean) ** 2, 0) / Math.max(1, xs.length - 1);
  return { mean, half: 1.96 * Math.sqrt(variance / Math.max(1, xs.length)) };
}

/** Summarises pair results. The CI treats each pair (same bag, seats swapped) as one sample. */
export function summarise(a: BotLevel, b: BotLevel, players: number, rules: Rules, seed: string, workers: number, results: PairResult[], wallSeconds: number, mixed = false): TournamentSummary {
  let winsA = 0;
  let draws = 0;
  let winsB = 0;
  let sumA = 0;
  let sumB = 0;
  let stoppedMoves = 0;
  const msA: number[] = [];
  const msB: number[] = [];
  const cpuA: number[] = [];
  const cpuB: number[] = [];
  const pairScores: number[] = [];
  const pairSeatScores: number[] = [];
  let placeA = 0;
  let placeB = 0;
  for (const pr of results) {
    let pairScore = 0;
    let pairSeatScore = 0;
    for (const g of pr.games) {
      const seatsA = seatsOfA(g);
      const mean = (xs: number[]) => xs.reduce((u, v) => u + v, 0) / xs.length;
      const place = places(g.scores);
      const ofA = (xs: number[]) => xs.filter((_, p) => seatsA.includes(p));
      const ofB = (xs: number[]) => xs.filter((_, p) => !seatsA.includes(p));
      sumA += mean(ofA(g.scores));
      sumB += mean(ofB(g.scores));
      placeA += mean(ofA(place));
      placeB += mean(ofB(place));
      pairSeatScore += seatPairScore(g) / pr.games.length;
      const score = scoreForA(g);
      if (score === 1) winsA++;
      else if (score === 0.5) draws++;
      else winsB++;
      pairScore += score;
      msA.push(...g.msA);
      msB.push(...g.msB);
      cpuA.push(...g.cpuA);
      cpuB.push(...g.cpuB);
      stoppedMoves += g.stoppedMoves;
    }
    pairScores.push(pairScore / pr.games.length);
    pairSeatScores.push(pairSeatScore);
  }
  const games = winsA + draws + winsB;
  const pairs = pairScores.length;
  const rate = (winsA + draws / 2) / Math.max(1, games);
  const mean = pairScores.reduce((u, v) => u + v, 0) / Math.max(1, pairs);
  const variance = pairScores.reduce((u, v) => u + (v - mean) ** 2, 0) / Math.max(1, pairs - 1);
  const half = 1.96 * Math.sqrt(variance / Math.max(1, pairs));
  const lo = Math.max(0, rate - half);
  const hi = Math.min(1, rate + half);
  const clamp = (p: number) => Math.min(1 - 0.5 / Math.max(1, games), Math.max(0.5 / Math.max(1, games), p));
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const r4 = (x: number) => Math.round(x * 10000) / 10000;
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const seatPairs = interval(pairSeatScores);
  return {
    a,
    b,
    games,
    pairs,
    players,
    ...(mixed ? { mixed } : {}),
    rules,
    seed,
    workers,
    winsA,
    draws,
    winsB,
    winRate: r4(rate),
    ci95: [r4(lo), r4(hi)],
    elo: r1(elo(clamp(rate))),
    eloCi95: [r1(elo(clamp(lo))), r1(elo(clamp(hi)))],
    meanScoreA: r1(sumA / Math.max(1, games)),
    meanScoreB: r1(sumB / Math.max(1, games)),
    ...(mixed
      ? {
          seatPairs: { rate: r4(seatPairs.mean), ci95: [r4(Math.max(0, seatPairs.mean - seatPairs.half)), r4(Math.min(1, seatPairs.mean + seatPairs.half))] as [number, number] },
          meanPlace: { a: r2(placeA / Math.max(1, games)), b: r2(placeB / Math.max(1, games)) },
        }
      : {}),
    ms: { a: timing(msA), b: timing(msB) },
    cpuMs: { a: timing(cpuA), b: timing(cpuB) },
    stoppedMoves,
    wallSeconds: r1(wallSeconds),
    date: new Date().toISOString(),
    node: process.version,
  };
}

function pairIndex(r: PairResult): number {
  return Number(r.seed.split(':').pop());
}

export function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

export function formatSummary(s: TournamentSummary): string {
  const rules = rulesWords(s.rules);
  return [
    `${s.a} vs ${s.b}: ${s.games} games (${s.pairs} seat-swapped pairs), ${playersText(s)}, ${rules}, seed ${s.seed}`,
    `  ${s.a} wins ${s.winsA}, draws ${s.draws}, ${s.b} wins ${s.winsB}`,
    `  ${s.a} win rate ${pct(s.winRate)} (95% CI ${pct(s.ci95[0])} – ${pct(s.ci95[1])}), Elo ${eloText(s)}${s.players > 2 ? '' : ` (${s.eloCi95[0]} … ${s.eloCi95[1]})`}`,
    `  mean score ${s.a} ${s.meanScoreA}, ${s.b} ${s.meanScoreB}`,
    `  ms/move ${s.a}: mean ${s.ms.a.mean}, p95 ${s.ms.a.p95}, max ${s.ms.a.max} (${s.ms.a.moves} moves)${s.cpuMs ? `; CPU ms mean ${s.cpuMs.a.mean}, p95 ${s.cpuMs.a.p95}` : ''}`,
    `  ms/move ${s.b}: mean ${s.ms.b.mean}, p95 ${s.ms.b.p95}, max ${s.ms.b.max} (${s.ms.b.moves} moves)${s.cpuMs ? `; CPU ms mean ${s.cpuMs.b.mean}, p95 ${s.cpuMs.b.p95}` : ''}`,
    `  ${s.wallSeconds} s wall on ${s.workers} worker(s)${s.stoppedMoves ? `, ${s.stoppedMoves} moves cut by the safety cap` : ''}`,
  ].join('\n');
}

function playersText(s: TournamentSummary): string {
  return s.mixed ? `${s.players} players (mixed: A in every other seat)` : `${s.players} players`;
}

function seatPairsText(s: TournamentSummary): string {
  const p = s.seatPairs!;
  return `${s.a} above ${s.b} in ${pct(p.rate)} of seat pairs (95% CI ${pct(p.ci95[0])} – ${pct(p.ci95[1])}, par 50.0%), mean place ${s.meanPlace!.a} vs ${s.meanPlace!.b}`;
}

/** A clean sweep has no finite Elo: show the bound the clamped rate gives. */
function eloText(s: TournamentSummary): string {
  // A mixed table is won by the level of its top seat: par is ½ over a pair of games.
  if (s.mixed) return `n/a (par 50.0%); ${seatPairsText(s)}`;
  // With more players, A "wins" by beating every B seat: par is 1/players, and Elo does not apply.
  if (s.players > 2) return `n/a (par ${pct(1 / s.players)})`;
  const sign = s.elo >= 0 ? '+' : '';
  if (s.winsB === 0 && s.draws === 0) return `≥ ${sign}${s.elo}`;
  if (s.winsA === 0 && s.draws === 0) return `≤ ${sign}${s.elo}`;
  return `${sign}${s.elo}`;
}

const LADDER_START = '<!-- ladder:start (generated by npm run tournament; do not edit) -->';
const LADDER_END = '<!-- ladder:end -->';

/** Rebuilds the ladder table in docs/BOTS.md from the JSON results in docs/tournaments/. */
export function updateLadder(dir: string, botsMd: string): void {
  const rows: TournamentSummary[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    rows.push(JSON.parse(readFileSync(join(dir, f), 'utf8')) as TournamentSummary);
  }
  const order = (l: string) => (BOT_LEVELS as readonly string[]).indexOf(l);
  rows.sort((x, y) => order(x.a) - order(y.a) || order(x.b) - order(y.b) || x.players - y.players || x.date.localeCompare(y.date));
  const lines = [
    LADDER_START,
    '',
    '| A vs B | players | rules | games | A wins / draws / B wins | A win rate (95% CI) | Elo A−B | ms/move A mean / p95 (CPU mean) | ms/move B mean / p95 (CPU mean) | date |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (s) =>
        `| ${s.a} vs ${s.b} | ${s.players}${s.mixed ? ' (mixed)' : ''} | ${rulesWords(s.rules)} | ${s.games}${s.requestedGames ? ` (of ${s.requestedGames}, time-bound)` : ''} | ${s.winsA} / ${s.draws} / ${s.winsB} | ${pct(s.winRate)} (${pct(s.ci95[0])}–${pct(s.ci95[1])}) | ${eloText(s)} | ${s.ms.a.mean} / ${s.ms.a.p95}${s.cpuMs ? ` (${s.cpuMs.a.mean})` : ''} | ${s.ms.b.mean} / ${s.ms.b.p95}${s.cpuMs ? ` (${s.cpuMs.b.mean})` : ''} | ${s.date.slice(0, 10)} |`,
    ),
    '',
    LADDER_END,
  ];
  writeMarkedSection(botsMd, LADDER_START, LADDER_END, lines.join('\n'), '# Bots\n\n## Ladder\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      a: { type: 'string', default: 'expert' },
      b: { type: 'string', default: 'heuristic' },
      games: { type: 'string', default: '400' },
      workers: { type: 'string', default: '2' },
      seed: { type: 'string', default: 'tessera' },
      players: { type: 'string', default: '2' },
      rules: { type: 'string' },
      out: { type: 'string' },
      'max-minutes': { type: 'string' },
      mixed: { type: 'boolean', default: false },
      'no-ladder': { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
    },
  });
  const a = values.a;
  const b = values.b;
  if (!isBotLevel(a) || !isBotLevel(b)) throw new Error(`levels are ${BOT_LEVELS.join(', ')}`);
  const games = Number(values.games);
  const workers = Number(values.workers);
  const players = Number(values.players);
  if (!Number.isInteger(games) || games < 2) throw new Error('--games must be an integer ≥ 2');
  if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be an integer ≥ 1');
  if (![2, 3, 4, 5, 6].includes(players)) throw new Error('--players must be 2, 3, 4, 5 or 6');
  const mixed = values.mixed!;
  const rules = parseRules(values.rules);
  const maxMs = values['max-minutes'] ? Number(values['max-minutes']) * 60_000 : Infinity;
  if (!(maxMs > 0)) throw new Error('--max-minutes must be a positive number');
  const seed = values.seed!;
  const pairs = Math.ceil(games / 2);
  const dir = join(repo, 'docs', 'tournaments');
  mkdirSync(dir, { recursive: true });
  const file = values.out ?? join(dir, `${a}-vs-${b}-${players}p${mixed ? '-mixed' : ''}-${ruleTag(rules)}.json`);
  const checkpoint = new Checkpoint<PairResult>(`${file}.checkpoint.jsonl`, checkpointKey(a, b, players, rules, seed, mixed), {
    fresh: values.fresh!,
    what: 'a different tournament (other levels, seed, rules or search parameters)',
    unit: 'pairs',
    keep: (r) => pairIndex(r) < pairs,
  });
  const resumed = checkpoint.resumed;
  const done = new Set(resumed.map(pairIndex));
  const pool = new Piscina({
    filename: new URL('./tournament-worker.ts', import.meta.url).href,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: 1000,
  });
  const started = performance.now();
  const results: PairResult[] = [];
  let wa = 0;
  let dr = 0;
  let wb = 0;
  const count = (r: PairResult) => {
    results.push(r);
    for (const g of r.games) {
      const score = scoreForA(g);
      if (score === 1) wa++;
      else if (score === 0.5) dr++;
      else wb++;
    }
  };
  resumed.forEach(count);
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  const progress = () => {
    // A live line on a terminal; otherwise a plain line every 10% (logs stay readable).
    if (!tty && results.length % Math.max(1, Math.ceil(pairs / 10)) !== 0) return;
    if (!tty && results.length === lastLine && results.length !== 0) return;
    lastLine = results.length;
    const n = wa + dr + wb;
    const rate = n ? (wa + dr / 2) / n : 0;
    const el = (performance.now() - started) / 1000;
    const playedNow = results.length - resumed.length;
    const eta = playedNow ? (el / playedNow) * (pairs - results.length) : 0;
    process.stderr.write(`${tty ? '\r' : ''}[${results.length}/${pairs} pairs] ${a} ${wa} – ${dr} – ${wb} ${b}  (${pct(rate)})  ${el.toFixed(0)} s, ~${eta.toFixed(0)} s left${tty ? '   ' : '\n'}`);
  };
  progress();
  const timedOut = await playBounded({
    count: pairs,
    workers,
    maxMs,
    done,
    play: async (index) => {
      const task: PairTask = { a, b, seed: `${seed}:${index}`, players, rules, ...(mixed ? { mixed } : {}) };
      const r = (await pool.run(task)) as PairResult;
      checkpoint.record(r);
      count(r);
      progress();
    },
  });
  if (tty) process.stderr.write('\n');
  if (timedOut) process.stderr.write(`time bound reached: ${results.length} of ${pairs} pairs played\n`);
  await pool.destroy();
  results.sort((x, y) => pairIndex(x) - pairIndex(y));
  const summary = summarise(a, b, players, rules, seed, workers, results, (performance.now() - started) / 1000, mixed);
  if (timedOut) Object.assign(summary, { requestedGames: games, maxMinutes: Number(values['max-minutes']) });
  if (resumed.length > 0) summary.resumedPairs = resumed.length;
  console.log(formatSummary(summary));
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`  wrote ${file}`);
  if (!values['no-ladder'] && !values.out) {
    updateLadder(dir, join(repo, 'docs', 'BOTS.md'));
    console.log('  updated the ladder in docs/BOTS.md');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
