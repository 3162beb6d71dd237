// Capacity: for each bot level, the number of concurrent games (one person with think times
// against one bot) this machine holds with bot move p99 ≤ the level's budget + 100 ms and
// event-loop delay p99 ≤ 5 ms. Each step runs against a fresh server; steps grow (doubling past
// the listed ones, up to a cap) until bot p99 fails, then the gap to the last passing step is
// bisected once. Capacity is also stated against the CPU-bound limit: worker cores × 1000 ÷
// (ms of search CPU per bot move × bot moves per game-second).
//
//   node dist/bench/capacity/run.js [quick|full|tiny] [--levels=hard,expert]

import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad, windowStats } from '../games/load.ts';
import { machine, machineLine, type MachineInfo } from '../lib/proc.ts';
import { startServer } from '../../support/server.ts';
import { progress, round, table, type Summary } from '../lib/stats.ts';
import { lines } from '../../client/src/charts.ts';

/** Nominal search budgets of the search levels (ms); the others answer in a few ms. */
export const BUDGET_MS: Record<string, number> = { heuristic: 50, medium: 100, hard: 250, expert: 500 };

export interface CapacityOptions {
  levels: BotLevel[];
  /** Concurrent games to try, ascending. */
  steps: number[];
  /** While bot p99 still holds at the last listed step, steps double up to this many games. */
  maxGames: number;
  thinkMs: [number, number];
  rampSeconds: number;
  /** Measured seconds per step after the ramp. */
  seconds: number;
  loopP99Ms: number;
  bisect: boolean;
  plotDir: string | null;
}

export const CAPACITY_MODES: Record<'tiny' | 'quick' | 'full', CapacityOptions> = {
  tiny: { levels: ['hard'], steps: [2], maxGames: 2, thinkMs: [300, 600], rampSeconds: 1, seconds: 2.5, loopP99Ms: 5, bisect: false, plotDir: null },
  quick: { levels: ['hard'], steps: [10, 40], maxGames: 80, thinkMs: [2000, 5000], rampSeconds: 3, seconds: 10, loopP99Ms: 5, bisect: false, plotDir: null },
  full: { levels: ['medium', 'hard', 'expert'], steps: [2, 5, 10, 20, 40, 80], maxGames: 1280, thinkMs: [2000, 5000], rampSeconds: 5, seconds: 25, loopP99Ms: 5, bisect: true, plotDir: 'docs/bench' },
};

export interface Step {
  level: string;
  games: number;
  bot: Summary;
  loopP99Ms: number;
  loopP99Median: number;
  loopMaxMs: number;
  degraded: number;
  fallback: number;
  /** Pool queue wait p99 over the step (ramp included), from /api/pool. */
  queueWaitP99Ms: number;
  utilization: number;
  /** Searches that ran past their deadline over the step (ramp included). */
  deadlineHits: number;
  /** The CPU-bound limit measured at this step. */
  cpu: CpuBound;
  pass: boolean;
  botPass: boolean;
  why: string;
}

/** What the bot searches cost at a step, and the games the worker cores could hold at that cost. */
export interface CpuBound {
  workers: number;
  /** Search CPU per bot move, ms (the workers' compute CPU ÷ searched bot moves, ramp included). */
  cpuMsPerBotMove: number;
  /** Bot moves per game per second in the measured window (set by the think time). */
  botMovesPerGameSecond: number;
  /** workers × 1000 ÷ (cpuMsPerBotMove × botMovesPerGameSecond). */
  games: number;
}

export function cpuBound(workers: number, computeCpuMs: number, searchedMoves: number, windowMoves: number, games: number, seconds: number): CpuBound {
  const cpuMsPerBotMove = searchedMoves > 0 ? computeCpuMs / searchedMoves : 0;
  const botMovesPerGameSecond = windowMoves / (games * seconds);
  const limit = cpuMsPerBotMove > 0 && botMovesPerGameSecond > 0 ? (workers * 1000) / (cpuMsPerBotMove * botMovesPerGameSecond) : 0;
  return { workers, cpuMsPerBotMove: round(cpuMsPerBotMove, 2), botMovesPerGameSecond: round(botMovesPerGameSecond, 3), games: Math.round(limit) };
}

export interface CapacityReport {
  machine: MachineInfo;
  machineEnd: MachineInfo;
  options: CapacityOptions;
  steps: Step[];
  /** games: both criteria; botOnly: the bot p99 criterion alone. */
  knee: Record<string, Knee>;
}

export interface Knee {
  games: number;
  limitMs: number;
  firstFail: number | null;
  botOnly: number;
  botFirstFail: number | null;
  /** The CPU-bound limit measured at the bot-only knee's step, and the knee as a fraction of it. */
  cpuBoundGames: number;
  fractionOfCpuBound: number | null;
}

async function step(level: BotLevel, games: number, o: CapacityOptions): Promise<Step> {
  const server = await startServer();
  try {
    const r = await runLoad({
      url: server.url,
      pid: server.pid,
      people: games,
      level,
      thinkMs: o.thinkMs,
      rampMs: o.rampSeconds * 1000,
      seconds: o.rampSeconds + o.seconds,
      graceMs: 0,
      seed: games,
      quiet: true,
      pollAtMs: [o.rampSeconds * 1000, (o.rampSeconds + o.seconds) * 1000 - 50],
    });
    // One /api/pool read at the end of the ramp (resets the server's histogram), one at the end:
    // the second covers exactly the measured window, so its p99 is the window's p99.
    const w = windowStats(r, o.rampSeconds * 1000 + 1, (o.rampSeconds + o.seconds) * 1000);
    const limit = (BUDGET_MS[level] ?? 0) + 100;
    const botOk = w.bot.count > 0 && w.bot.p99 <= limit;
    const loopOk = w.loopP99Ms <= o.loopP99Ms;
    const src = r.botMoveSources;
    const inWindow = r.windows.filter((x) => x.at >= o.rampSeconds * 1000);
    const pool = r.pool;
    return {
      level,
      games,
      bot: w.bot,
      loopP99Ms: w.loopP99Ms,
      loopP99Median: w.loopP99Median,
      loopMaxMs: w.loopMaxMs,
      degraded: src.degraded ?? 0,
      fallback: (src.fallback ?? 0) + (src.retry ?? 0),
      queueWaitP99Ms: Number(r.pool?.tasks?.queueWaitMs.p99 ?? 0),
      utilization: inWindow.length ? Math.round((inWindow.reduce((n, x) => n + x.utilization, 0) / inWindow.length) * 100) / 100 : 0,
      deadlineHits: pool?.counters.deadlineHits ?? 0,
      cpu: cpuBound(pool?.size ?? 0, pool?.computeCpuMs ?? 0, pool?.counters.botMoves.search ?? 0, w.bot.count, games, o.seconds),
      pass: botOk && loopOk,
      botPass: botOk,
      why: [botOk ? '' : w.bot.count === 0 ? 'no bot moves' : `bot p99 ${w.bot.p99} > ${limit} ms`, loopOk ? '' : `loop p99 ${w.loopP99Ms} > ${o.loopP99Ms} ms`].filter(Boolean).join('; '),
    };
  } finally {
    await server.stop();
  }
}

/** The listed steps, then doubling from the last one while at most `maxGames` (a generator: the
 * caller stops at the first failing step). */
export function* stepsUpTo(listed: number[], maxGames: number): Generator<number> {
  yield* listed;
  for (let g = (listed.at(-1) ?? 1) * 2; g <= maxGames; g *= 2) yield g;
}

export async function runCapacity(o: CapacityOptions): Promise<{ report: CapacityReport; markdown: string }> {
  const m0 = machine();
  const steps: Step[] = [];
  const knee: CapacityReport['knee'] = {};
  const run = async (level: BotLevel, games: number) => {
    progress(`capacity: ${level}, ${games} concurrent games, ${o.seconds} s …`);
    const s = await step(level, games, o);
    progress(
      `  bot p99 ${s.bot.p99} ms (${s.bot.count} moves), loop p99 ${s.loopP99Ms} ms, queue wait p99 ${s.queueWaitP99Ms} ms, ${s.degraded} degraded, ${s.deadlineHits} deadline hits; ${s.cpu.cpuMsPerBotMove} ms CPU per bot move, CPU-bound limit ${s.cpu.games} games → ${s.pass ? 'pass' : `FAIL: ${s.why}`}`,
    );
    steps.push(s);
    return s;
  };
  for (const level of o.levels) {
    // Steps grow while bot p99 holds (the loop criterion is recorded at each step, but on a
    // shared machine it can fail on noise at any size, and stopping there would hide the curve).
    let best = 0;
    let bestBot = 0;
    let firstFail: number | null = null;
    let firstBotFail: number | null = null;
    for (const g of stepsUpTo(o.steps, o.maxGames)) {
      const s = await run(level, g);
      if (s.pass && firstFail === null) best = g;
      else if (firstFail === null) firstFail = g;
      if (s.botPass) bestBot = g;
      else {
        firstBotFail = g;
        break;
      }
    }
    if (o.bisect && firstBotFail !== null && firstBotFail - bestBot > 1) {
      const mid = Math.round((bestBot + firstBotFail) / 2);
      const s = await run(level, mid);
      if (s.botPass) bestBot = mid;
      else firstBotFail = mid;
      if (s.pass && mid > best && (firstFail === null || mid < firstFail)) best = mid;
    }
    const atKnee = steps.find((s) => s.level === level && s.games === bestBot);
    const cpuBoundGames = atKnee?.cpu.games ?? 0;
    knee[level] = {
      games: best,
      limitMs: (BUDGET_MS[level] ?? 0) + 100,
      firstFail,
      botOnly: bestBot,
      botFirstFail: firstBotFail,
      cpuBoundGames,
      fractionOfCpuBound: cpuBoundGames > 0 ? round(bestBot / cpuBoundGames, 2) : null,
    };
  }
  const report: CapacityReport = { machine: m0, machineEnd: machine(), options: o, steps, knee };
  if (o.plotDir) {
    mkdirSync(o.plotDir, { recursive: true });
    writeFileSync(
      join(o.plotDir, 'capacity.svg'),
      lines({
        title: 'Bot move p99 against concurrent games, per level',
        xLabel: 'concurrent games (1 person + 1 bot each)',
        yLabel: 'bot move p99 (ms)',
        series: o.levels.map((level) => ({
          name: `${level} (limit ${(BUDGET_MS[level] ?? 0) + 100} ms)`,
          points: steps
            .filter((s) => s.level === level)
            .sort((a, b) => a.games - b.games)
            .map((s) => [s.games, s.bot.p99] as [number, number]),
        })),
      }),
    );
  }
  return { report, markdown: capacityMarkdown(report) };
}

function capacityMarkdown(r: CapacityReport): string {
  const o = r.options;
  const rows = r.steps.map((s) => [
    s.level,
    s.games,
    s.bot.count,
    `${s.bot.p50} / ${s.bot.p99} / ${s.bot.max}`,
    `${s.loopP99Ms} / ${s.loopMaxMs}`,
    s.queueWaitP99Ms,
    s.utilization,
    s.degraded,
    s.fallback,
    s.deadlineHits,
    `${s.cpu.cpuMsPerBotMove} / ${s.cpu.botMovesPerGameSecond} / ${s.cpu.games}`,
    s.pass ? 'pass' : `fail: ${s.why}`,
  ]);
  const knees = Object.entries(r.knee).map(
    ([level, k]) =>
      `**${level}**: ${k.games} games with both criteria${k.firstFail !== null ? ` (first failing step ${k.firstFail})` : ''}; ${k.botOnly} games on bot p99 ≤ ${k.limitMs} ms alone${k.botFirstFail !== null ? ` (fails at ${k.botFirstFail})` : ' (no step failed: the knee is above the largest step tried)'}${k.fractionOfCpuBound === null ? '' : `, ${k.botFirstFail === null ? 'at least ' : ''}${Math.round(k.fractionOfCpuBound * 100)} % of the CPU-bound limit of ${k.cpuBoundGames} games`}`,
  );
  return `Measured by \`bench/capacity/run.ts\`: for each level, steps of N concurrent games (one simulated person with think time ${o.thinkMs[0] / 1000}–${o.thinkMs[1] / 1000} s against one bot, played through the WebSocket protocol), each step against a fresh server with its defaults (one bot worker here), ${o.rampSeconds} s ramp then ${o.seconds} s measured. A step passes when bot move p99 (queue + search, as the server reports it) ≤ the level's budget + 100 ms (budgets: ${Object.entries(
    BUDGET_MS,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ', ',
    )} ms) and the server's event-loop delay p99 over the measured window (its own loop monitor: how late a 10 ms timer fires) ≤ ${o.loopP99Ms} ms. Steps grow until bot p99 fails (past the listed steps ${o.steps.join(', ')}, doubling up to ${o.maxGames} games)${o.bisect ? ', then that gap is bisected once' : ''} (the loop criterion is recorded at every step; on a shared machine it can fail on scheduling noise at any size, so both knees are given). Machine: ${machineLine(r.machine, r.machineEnd)}; the load generator shares the cores with the server.

**Against the CPU-bound limit.** If search CPU were all that bounded capacity, the worker cores would hold workers × 1000 ÷ (ms of search CPU per bot move × bot moves per game-second) games; each step measures both factors (CPU: the workers' compute CPU ÷ searched bot moves; rate: bot moves in the measured window ÷ games ÷ seconds, set by the think time) and the knee is stated as a fraction of the limit measured at its step. Well below 1, something other than search CPU bends first (queueing behind bursts, the main thread, the load generator on the same cores).

**Knee:** ${knees.join('; ')}.

${table(['level', 'games', 'bot moves', 'bot p50 / p99 / max ms', 'loop p99 / max ms', 'pool queue wait p99 ms', 'pool utilisation', 'degraded', 'retry+fallback', 'deadline hits', 'CPU ms per bot move / bot moves per game-s / CPU-bound games', 'result'], rows)}
${o.plotDir ? '\n![capacity](bench/capacity.svg)\n' : ''}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = (process.argv[2] ?? 'full') as keyof typeof CAPACITY_MODES;
  const levelsArg = process.argv.find((a) => a.startsWith('--levels='));
  const { writeReport } = await import('../report.ts');
  const { report, markdown } = await runCapacity({ ...CAPACITY_MODES[mode], ...(levelsArg ? { levels: levelsArg.slice('--levels='.length).split(',') as BotLevel[] } : {}) });
  writeReport('capacity', 'Capacity: concurrent games per bot level', markdown, report);
}
