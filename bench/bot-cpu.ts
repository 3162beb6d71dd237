// Bot CPU per move at every table size: `npm run bench:bots [-- --quick]`.
//
// Each level chooses a move in the same positions (every `every`-th turn of `medium` self-play
// games, the bot's own view and seed), one search at a time on this thread, and the thread's CPU
// time of each choice is kept (process.threadCpuUsage: a busy machine stretches wall time, not
// this). Run it on a quiet machine: a core shared with other work still runs slower (caches,
// frequency), so the figures are upper bounds there. Writes its section of docs/BENCHMARKS.md
// and docs/results/bot-cpu.json, with each level's p95 against its documented budget.

import { parseArgs } from 'node:util';
import { ANALYSIS_CPU_BUDGET_MS, ANALYSIS_SAMPLES, analysePosition } from '../bot-engine/analysis.ts';
import { type BotLevel, chooseMove } from '../bot-engine/bots/index.ts';
import { resolvedToMove } from '../bot-engine/game.ts';
import { LEVEL_CPU_BUDGET_MS } from '../bot-engine/bots/levels.ts';
import { type RolloutParams, SEARCH_LEVELS, budgetAt, lastSearchWork, rolloutPlies } from '../bot-engine/bots/rollout.ts';
import type { Rules } from '../bot-engine/rules.ts';
import { type Position, selfPlayPositions } from './lib/positions.ts';
import { machine, machineLine } from './lib/proc.ts';
import { writeReport } from './report.ts';
import { timing } from './tournament.ts';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, players: { type: 'string' }, levels: { type: 'string' }, 'no-report': { type: 'boolean', default: false } },
});
const quick = values.quick;

const EVERY_OPTION: Partial<Rules> = { innsCathedrals: true, river: true, abbot: true };
/** The tables the issue names: every option at 2, 3, 4 and 6 players, the base game at 5 (and
 * every option at 5, the size between). */
const TABLES: { players: number; rules?: Partial<Rules>; label: string }[] = [
  { players: 2, label: 'base game' },
  { players: 2, rules: EVERY_OPTION, label: 'every option' },
  { players: 3, rules: EVERY_OPTION, label: 'every option' },
  { players: 4, rules: EVERY_OPTION, label: 'every option' },
  { players: 5, label: 'base game' },
  { players: 5, rules: EVERY_OPTION, label: 'every option' },
  { players: 6, rules: EVERY_OPTION, label: 'every option' },
];
// --levels medium,hard,analysis: only those rows (a check; the report wants them all).
const rowsAsked = values.levels?.split(',');
const asked = (row: string) => !rowsAsked || rowsAsked.includes(row);
const LEVELS = (['greedy', 'heuristic', 'medium', 'hard', 'expert'] as const).filter(asked);

interface Row {
  players: number;
  table: string;
  level: BotLevel | 'analysis';
  positions: number;
  /** Candidates × determinizations and plies per rollout at this table (search levels). */
  search?: string;
  /** The search's work per move (bots/rollout.ts workOf: ≈ 4 ns of CPU a unit), mean / max. */
  work?: { mean: number; max: number };
  meanMs: number;
  p95Ms: number;
  maxMs: number;
  budgetMs: number;
  within: boolean;
}

function searchShape(level: BotLevel, players: number): string | undefined {
  if (!(level in SEARCH_LEVELS)) return undefined;
  const p: RolloutParams = budgetAt(SEARCH_LEVELS[level as keyof typeof SEARCH_LEVELS], players);
  return `${p.candidates} × ${p.samples}, 1 + ${rolloutPlies(p.horizon, players)} plies`;
}

const rows: Row[] = [];
const machineStart = machine();
// --players 4,6: only those tables (a check; the report wants them all).
const only = values.players?.split(',').map(Number);
for (const table of TABLES.filter((t) => !only || only.includes(t.players))) {
  // Two games, every 4th turn (≈ 35–50 positions a table); quick: one game, every 12th.
  const positions = selfPlayPositions(quick ? 1 : 2, quick ? 12 : 4, 'medium', 'bot-cpu', table.players, table.rules);
  for (const level of LEVELS) measure(table, level, positions, LEVEL_CPU_BUDGET_MS[level], searchShape(level, table.players), ({ view, seed }) => chooseMove(view, level, seed));
  // Game analysis judges `heuristic`'s move in each position (the expert's search, then both
  // moves' rollouts): background work, with its own budget.
  if (asked('analysis'))
    measure(table, 'analysis', positions, ANALYSIS_CPU_BUDGET_MS, `expert's, then 2 × ${ANALYSIS_SAMPLES}`, ({ view, seed }) => {
      analysePosition(view, resolvedToMove(view, chooseMove(view, 'heuristic', seed)), seed);
    });
}

function measure(table: (typeof TABLES)[number], level: Row['level'], positions: Position[], budgetMs: number, search: string | undefined, run: (p: Position) => void): void {
  const searches = level in SEARCH_LEVELS;
  const work: number[] = [];
  const ms = positions.map((p) => {
    const t0 = process.threadCpuUsage();
    run(p);
    const t = process.threadCpuUsage(t0);
    if (searches) work.push(Math.round(lastSearchWork()));
    return (t.user + t.system) / 1000;
  });
  const cpu = timing(ms);
  const row: Row = {
    players: table.players,
    table: table.label,
    level,
    positions: ms.length,
    search,
    ...(searches ? { work: { mean: Math.round(work.reduce((a, b) => a + b, 0) / work.length), max: Math.max(...work) } } : {}),
    meanMs: cpu.mean,
    p95Ms: cpu.p95,
    maxMs: cpu.max,
    budgetMs,
    within: cpu.p95 <= budgetMs,
  };
  rows.push(row);
  console.log(
    `${row.players} players, ${row.table}: ${level} mean ${row.meanMs} ms, p95 ${row.p95Ms} ms (budget ${row.budgetMs}) over ${row.positions} positions${row.work ? `, work ${row.work.mean} (max ${row.work.max})` : ''}`,
  );
}

const machineEnd = machine();
const table = [
  `_Run: \`npm run bench:bots${quick ? ' -- --quick' : ''}\`, ${machineLine(machineStart, machineEnd)}._`,
  "Thread CPU of one `chooseMove` per position (the bot's view and seed), positions every 4th turn of two `medium` self-play games per table. A level is within its budget when its p95 is.",
  '',
  '| players | table | level | search (candidates × determinizations, plies per rollout) | work per move (millions of units), mean / max | positions | CPU ms per move mean / p95 / max | p95 budget | within |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.players} | ${r.table} | \`${r.level}\` | ${r.search ?? '–'} | ${r.work ? `${(r.work.mean / 1e6).toFixed(1)} / ${(r.work.max / 1e6).toFixed(1)}` : '–'} | ${r.positions} | ${r.meanMs} / ${r.p95Ms} / ${r.maxMs} | ${r.budgetMs} | ${r.within ? 'yes' : '**no**'} |`,
  ),
].join('\n');
if (!values['no-report']) writeReport('bot-cpu', 'Bot CPU per move at every table size', table, { machine: machineStart, machineEnd, quick, rows });
else console.log(table);
