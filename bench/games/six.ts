// Six-player tables under load: N simulated people, each at a table of six with every option
// (one person, then five bots), playing whole games through the WebSocket protocol with think
// times, on a fresh server with its defaults (pool size and deadline untouched) per step of N.
// Per step: how the bots' moves were made (search at the level asked, degraded to a cheaper
// level, the cheap retry, the main-thread fallback), the share that was not the full search,
// deadline hits, bot move time, the pool's queue wait and utilisation, and the event loop.
//
//   node dist/bench/games/six.js [full|tiny]

import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import type { RulesRequest } from '../../server/wire/api.ts';
import type { MoveSource } from '../../server/wire/game.ts';
import type { PoolReport, Quantiles } from '../../server/wire/pool.ts';
import { startServer } from '../../support/server.ts';
import { machine, machineLine, type MachineInfo } from '../lib/proc.ts';
import { progress, round, summarize, table, type Summary } from '../lib/stats.ts';
import { runLoad, windowStats, type BotMoveSample, type LoadResult, type LoadTable } from './load.ts';

/** What a player picks for the five bots at a full table. */
export const FULL_TABLE_LEVELS: BotLevel[] = ['expert', 'hard', 'medium', 'expert', 'hard'];
export const EVERY_OPTION: RulesRequest = { river: true, innsCathedrals: true, abbot: true };
const SOURCES: MoveSource[] = ['search', 'degraded', 'retry', 'fallback'];
/** "Seldom" binds: under 1 bot move in 100 made other than by the full search asked for. */
export const KNEE_FRACTION = 0.01;

export interface SixOptions {
  /** Concurrent tables, one step each, each step on a fresh server. */
  steps: number[];
  /** The five bots' levels, seats 1–5 (the person takes seat 0). */
  levels: BotLevel[];
  rules: RulesRequest;
  thinkMs: [number, number];
  /** Tables start spread over this many seconds; not measured. */
  rampSeconds: number;
  /** Measured seconds per step, after the ramp. */
  seconds: number;
}

export const SIX_MODES: Record<'tiny' | 'full', SixOptions> = {
  tiny: { steps: [1], levels: ['greedy', 'heuristic', 'random', 'greedy', 'heuristic'], rules: EVERY_OPTION, thinkMs: [50, 100], rampSeconds: 0.5, seconds: 4 },
  full: { steps: [1, 2, 4, 8], levels: FULL_TABLE_LEVELS, rules: EVERY_OPTION, thinkMs: [1000, 3000], rampSeconds: 8, seconds: 120 },
};

export function sixTable(o: SixOptions): LoadTable {
  return { seats: [{ kind: 'person' }, ...o.levels.map((level) => ({ kind: 'bot' as const, level }))], rules: o.rules };
}

/** Bot moves by how they were made, and the share not made by the full search asked for. */
export interface MoveMix {
  moves: number;
  sources: Record<MoveSource, number>;
  /** (degraded + retry + fallback) ÷ moves: the deadline changed the level or the move. */
  degradedFraction: number;
  /** Bot move time as the server reports it with each move (queue + search), ms. */
  ms: Summary;
}

export function moveMix(samples: readonly Pick<BotMoveSample, 'source' | 'elapsedMs'>[]): MoveMix {
  const sources = Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<MoveSource, number>;
  for (const s of samples) sources[s.source as MoveSource] = (sources[s.source as MoveSource] ?? 0) + 1;
  const notSearched = samples.length - sources.search;
  return { moves: samples.length, sources, degradedFraction: samples.length ? round(notSearched / samples.length, 4) : 0, ms: summarize(samples.map((s) => s.elapsedMs)) };
}

export interface SixStep {
  tables: number;
  window: { fromMs: number; toMs: number };
  bot: MoveMix;
  /** The same per level the seats ask for. */
  byLevel: Record<string, MoveMix>;
  /** The server's own counters over the window (/api/pool): bot moves by source, degraded by step, deadline hits. */
  server: { botMoves: Record<string, number>; degraded: Record<string, number>; deadlineHits: number; searches: number; deadlineHitFraction: number };
  /** Pool queue wait, whole step (ramp included), from /api/pool. */
  queueWaitMs: Quantiles | null;
  /** Workers' busy time over the window ÷ (workers × window). */
  utilization: number;
  workers: number;
  /** Search CPU per searched move over the window, ms. */
  cpuMsPerSearch: number;
  /** Event loop: worst and median ~1 s window's p99, max (the server's monitor), and p99 over its last minute. */
  loop: { p99WorstSecondMs: number; p99MedianSecondMs: number; maxMs: number; p99LastMinuteMs: number };
  games: { started: number; finished: number; abandoned: number };
  personMoves: number;
  errors: LoadResult['errors'];
  cpu: LoadResult['cpu'];
  serverExitCode: number | null;
  serverLog: { warn: number; error: number };
}

export interface SixReport {
  machine: MachineInfo;
  machineEnd: MachineInfo;
  options: SixOptions;
  steps: SixStep[];
  /** The fewest tables at which the degraded fraction reaches KNEE_FRACTION (null: no step did). */
  knee: number | null;
}

const diff = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => Object.fromEntries(Object.keys({ ...a, ...b }).map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)]));

const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);
/** Bot moves the pool searched (every source but the main-thread fallback). */
const searched = (p: PoolReport) => (p.counters.botMoves.search ?? 0) + (p.counters.botMoves.degraded ?? 0) + (p.counters.botMoves.retry ?? 0);

async function step(tables: number, o: SixOptions): Promise<SixStep> {
  const server = await startServer();
  const reads: { at: number; report: PoolReport }[] = [];
  const rampMs = o.rampSeconds * 1000;
  const endMs = rampMs + o.seconds * 1000;
  let r: LoadResult;
  let code: number | null;
  try {
    r = await runLoad({
      url: server.url,
      pid: server.pid,
      people: tables,
      table: sixTable(o),
      thinkMs: o.thinkMs,
      rampMs,
      seconds: endMs / 1000,
      graceMs: 0,
      seed: tables,
      quiet: true,
      // A read at the ramp's end, then every second; the last just before the end.
      pollAtMs: [...Array.from({ length: o.seconds }, (_, i) => rampMs + i * 1000), endMs - 20],
      onPool: (at, report) => reads.push({ at, report }),
    });
  } finally {
    code = await server.stop();
  }
  const first = reads[0];
  const last = reads.at(-1);
  if (!first || !last || last === first) throw new Error(`six: /api/pool answered ${reads.length} times in the window`);
  const inWindow = r.botSamples.filter((s) => s.at >= first.at && s.at <= last.at);
  const byLevel: Record<string, MoveMix> = {};
  for (const level of new Set(o.levels)) byLevel[level] = moveMix(inWindow.filter((s) => s.level === level));
  const a = first.report;
  const b = last.report;
  const searches = searched(b) - searched(a);
  const deadlineHits = b.counters.deadlineHits - a.counters.deadlineHits;
  const busyMs = sum(b.workers.map((w) => w.computeWallMs)) - sum(a.workers.map((w) => w.computeWallMs));
  const cpuMs = b.computeCpuMs - a.computeCpuMs;
  const w = windowStats(r, first.at + 1, last.at + 1);
  return {
    tables,
    window: { fromMs: round(first.at), toMs: round(last.at) },
    bot: moveMix(inWindow),
    byLevel,
    server: {
      botMoves: diff(a.counters.botMoves, b.counters.botMoves),
      degraded: diff(a.counters.degraded, b.counters.degraded),
      deadlineHits,
      searches,
      deadlineHitFraction: searches ? round(deadlineHits / searches, 4) : 0,
    },
    queueWaitMs: r.pool?.tasks?.queueWaitMs ?? null,
    utilization: round(busyMs / (Math.max(1, b.size) * (last.at - first.at)), 3),
    workers: b.size,
    cpuMsPerSearch: searches ? round(cpuMs / searches) : 0,
    loop: { p99WorstSecondMs: w.loopP99Ms, p99MedianSecondMs: w.loopP99Median, maxMs: w.loopMaxMs, p99LastMinuteMs: round(b.eventLoop.lastMinute.delayMs.p99, 2) },
    games: { started: r.gamesStarted, finished: r.gamesFinished, abandoned: r.gamesAbandoned },
    personMoves: r.personMoves,
    errors: r.errors,
    cpu: r.cpu,
    serverExitCode: code,
    serverLog: { warn: server.logSummary().warn, error: server.logSummary().error },
  };
}

export async function runSix(o: SixOptions): Promise<{ report: SixReport; markdown: string }> {
  const m0 = machine();
  const steps: SixStep[] = [];
  for (const tables of o.steps) {
    progress(`six: ${tables} table${tables === 1 ? '' : 's'} of 1 person + ${o.levels.join(', ')}, ${o.rampSeconds} s ramp + ${o.seconds} s measured …`);
    const s = await step(tables, o);
    progress(
      `  ${s.bot.moves} bot moves (${SOURCES.map((k) => `${k} ${s.bot.sources[k]}`).join(', ')}): ${pct(s.bot.degradedFraction)} degraded+fallback, ${s.server.deadlineHits} deadline hits; bot p50/p95/p99/max ${s4(s.bot.ms)} ms; queue wait p99 ${s.queueWaitMs?.p99 ?? '–'} ms; utilisation ${s.utilization}; loop p99 ${s.loop.p99WorstSecondMs} ms`,
    );
    steps.push(s);
  }
  const knee = steps.find((s) => s.bot.degradedFraction >= KNEE_FRACTION)?.tables ?? null;
  const report: SixReport = { machine: m0, machineEnd: machine(), options: o, steps, knee };
  return { report, markdown: sixMarkdown(report) };
}

const s4 = (s: Summary) => `${s.p50} / ${s.p95} / ${s.p99} / ${s.max}`;
const pct = (x: number) => `${round(100 * x, 1)} %`;
const mix = (m: MoveMix) => SOURCES.map((k) => m.sources[k]).join(' / ');

export function sixMarkdown(r: SixReport): string {
  const o = r.options;
  const rows = r.steps.map((s) => [
    s.tables,
    s.bot.moves,
    mix(s.bot),
    `**${pct(s.bot.degradedFraction)}**`,
    `${s.server.deadlineHits} (${pct(s.server.deadlineHitFraction)})`,
    s4(s.bot.ms),
    s.queueWaitMs?.p99 ?? '–',
    s.utilization,
    `${s.loop.p99WorstSecondMs} (${s.loop.p99MedianSecondMs}) / ${s.loop.maxMs}`,
    s.cpu ? `${s.cpu.coresMean} / ${s.cpu.coresMax}` : '–',
  ]);
  const levelRows = r.steps.flatMap((s) => Object.entries(s.byLevel).map(([level, m]) => [s.tables, `\`${level}\``, m.moves, mix(m), pct(m.degradedFraction), s4(m.ms)]));
  const errors = r.steps.map((s) => {
    const e = s.errors;
    const ws = Object.entries(e.wsErrorFrames).map(([k, v]) => `${k} ${v}`);
    return `${s.tables}: games ${s.games.started} started, ${s.games.finished} finished, ${s.games.abandoned} cut at the end; ${s.personMoves} person moves; errors HTTP ${e.http}, refused ${e.createRefused}, WS ${ws.join(', ') || 'none'}, closed early ${e.wsClosedEarly}, stalled ${e.stalled}; server ${s.serverLog.warn} warnings, ${s.serverLog.error} errors, exit ${s.serverExitCode}`;
  });
  const workers = [...new Set(r.steps.map((s) => s.workers))].join(', ');
  const largest = r.steps.reduce((a, b) => (b.tables > a.tables ? b : a));
  const knee =
    r.knee === null
      ? `above ${largest.tables} tables, the largest step: there the worker was ${Math.round(100 * largest.utilization)} % busy and ${pct(largest.bot.degradedFraction)} of bot moves were degraded or fell back, so at the default pool size the deadline seldom binds at any table count tried`
      : r.knee === o.steps[0]
        ? `already at ${r.knee} table${r.knee === 1 ? '' : 's'}, the smallest step`
        : `at **${r.knee} tables** (${o.steps.filter((t) => t < (r.knee ?? 0)).join(', ')} stay under it)`;
  return `Measured by \`bench/games/six.ts\` (\`npm run bench:six\`): steps of ${o.steps.join(', ')} concurrent six-player tables, each step on a fresh server with its defaults (${workers} bot worker${workers === '1' ? '' : 's'} on this ${r.machine.cpus}-core machine, the bot deadline ${'`TESSERA_BOT_DEADLINE_MS`'} at its default, in-memory store). Each simulated person creates a table of six (${o.rules.river ? 'the River, ' : ''}${o.rules.innsCathedrals ? 'Inns & Cathedrals, ' : ''}${o.rules.abbot ? 'the Abbot' : ''}), seats: the person, then bots ${o.levels.map((l) => `\`${l}\``).join(', ')}; takes seat 0 and plays it through the WebSocket protocol (random legal placement, think time ${o.thinkMs[0] / 1000}–${o.thinkMs[1] / 1000} s), game after game. Tables start over ${o.rampSeconds} s, then ${o.seconds} s are measured; no HTTP load. Machine: ${machineLine(r.machine, r.machineEnd)}; the load generator shares the cores with the server.

**What the fraction means.** Each bot move comes with how the server made it (\`last.bot.source\`): \`search\` at the level the seat asks for, \`degraded\` (the pool's predicted wait left too little of the deadline for that level, so a cheaper one searched), \`retry\` (the search failed; a \`random\` search), \`fallback\` (no worker could answer in time; a move chosen on the main thread). The **degraded+fallback fraction** is (degraded + retry + fallback) ÷ bot moves: the share of bot moves where the deadline made the bot weaker than asked. Deadline hits (the server's counter) are searches stopped by the deadline with their best move so far, ÷ searches. Bot move time is what the server reports with each move (queue wait + search). Utilisation: the workers' busy time over the window ÷ (workers × window). Event loop: the server's own monitor, worst ~1 s window's p99 (median window's) and max. A table's bots move one after another (one search in flight per table), so at most one search per table waits: a saturated worker slows the tables down rather than lengthening the queue without bound, and the deadline binds only once the searches of the other tables ahead in the queue plus the level's own search exceed 80 % of the deadline (\`server/games/bot-scheduler.ts\`, \`planLevel\`).

**Where the deadline starts to bind** (degraded+fallback ≥ ${pct(KNEE_FRACTION)} of bot moves): ${knee}.

${table(['tables', 'bot moves', 'search / degraded / retry / fallback', 'degraded+fallback', 'deadline hits (÷ searches)', 'bot move p50 / p95 / p99 / max ms', 'pool queue wait p99 ms (whole step)', 'pool utilisation', 'loop p99 worst (median) / max ms', 'server CPU mean / max cores'], rows)}

Per level the seats ask for (the same window):

${table(['tables', 'level', 'bot moves', 'search / degraded / retry / fallback', 'degraded+fallback', 'bot move p50 / p95 / p99 / max ms'], levelRows)}

Games and errors per step: ${errors.join('; ')}.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = (process.argv[2] ?? 'full') as keyof typeof SIX_MODES;
  if (!SIX_MODES[mode]) {
    process.stderr.write(`usage: node dist/bench/games/six.js [${Object.keys(SIX_MODES).join('|')}]\n`);
    process.exit(2);
  }
  const { writeReport } = await import('../report.ts');
  const { report, markdown } = await runSix(SIX_MODES[mode]);
  writeReport('games-six', 'Six-player tables under load', markdown, report);
}
