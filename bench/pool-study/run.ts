// The spawn-vs-compute pool study: five ways to run bot searches, side by side, on the same
// bursty workload of real 50–500 ms searches, each with a small fastify server in this process
// under a steady autocannon load (from a child process) and the event loop measured.
//
//   node dist/bench/pool-study/run.js [quick|full|tiny]

import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Piscina } from 'piscina';
import { legalMoves, newGame, playMove } from '../../bot-engine/game.ts';
import { hideBag } from '../../bot-engine/rules.ts';
import botSearch, { type SearchTask } from '../../server/pool/search.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { WarmupResult, WarmupTask } from '../../server/pool/worker.ts';
import { DEFAULTS } from '../../server/config.ts';
import { runCannonChild, type CannonResult } from '../lib/cannon.ts';
import { benchFile } from '../lib/paths.ts';
import { machine, machineLine, type MachineInfo } from '../lib/proc.ts';
import { fmt, progress, rng, round, sleep, summarize, table, type Summary } from '../lib/stats.ts';
import { bars, scatterPanels } from '../../client/src/charts.ts';
import type { StudyResult } from './worker.ts';

export interface StudyOptions {
  /** Seconds of workload per strategy. */
  seconds: number;
  /** Searches per burst (min, max); bursts every `burstEveryMs` (±30 %). */
  burst: [number, number];
  burstEveryMs: number;
  /** Background searches per second between bursts (Poisson). */
  tricklePerSec: number;
  /** Steady HTTP load on the in-process server, requests per second. */
  httpRate: number;
  /** Positions calibrated to pick searches of 50–500 ms. */
  candidates: number;
  seed: number;
  /** Strategy ids to run (default all). */
  only?: string[];
  /** Where the SVG plots go (relative to cwd); null = none. */
  plotDir: string | null;
}

export const STUDY_MODES: Record<'tiny' | 'quick' | 'full', StudyOptions> = {
  tiny: { seconds: 2, burst: [3, 4], burstEveryMs: 1000, tricklePerSec: 0.5, httpRate: 100, candidates: 5, seed: 7, only: ['fixed', 'fresh'], plotDir: null },
  quick: { seconds: 10, burst: [4, 7], burstEveryMs: 2500, tricklePerSec: 1, httpRate: 200, candidates: 14, seed: 7, plotDir: 'docs/bench' },
  full: { seconds: 45, burst: [4, 8], burstEveryMs: 3000, tricklePerSec: 1, httpRate: 200, candidates: 30, seed: 7, plotDir: 'docs/bench' },
};

interface Strategy {
  id: string;
  label: string;
  kind: 'piscina' | 'fresh';
  min: number;
  max: number;
  idleTimeout: number;
  atomics: 'sync' | 'disabled';
  warm: boolean;
}

export function strategies(cores = availableParallelism(), reserved = 1): Strategy[] {
  const fixed = Math.max(1, cores - reserved);
  return [
    { id: 'fixed', label: `(1) fixed warm ${fixed}`, kind: 'piscina', min: fixed, max: fixed, idleTimeout: Infinity, atomics: 'disabled', warm: true },
    { id: 'dynamic', label: `(2) dynamic 1–${Math.ceil(1.5 * cores)}`, kind: 'piscina', min: 1, max: Math.ceil(1.5 * cores), idleTimeout: 0, atomics: 'disabled', warm: false },
    { id: 'fresh', label: '(3) fresh per search', kind: 'fresh', min: 0, max: Infinity, idleTimeout: 0, atomics: 'disabled', warm: false },
    { id: 'oversub', label: `(4) fixed warm ${2 * cores}`, kind: 'piscina', min: 2 * cores, max: 2 * cores, idleTimeout: Infinity, atomics: 'disabled', warm: true },
    { id: 'fixed-sync', label: `(5) fixed warm ${fixed}, atomics sync`, kind: 'piscina', min: fixed, max: fixed, idleTimeout: Infinity, atomics: 'sync', warm: true },
  ];
}

interface Candidate {
  state: ArrayBuffer;
  level: BotLevel;
  seed: number;
  /** Warm single-thread run time measured at calibration, ms. */
  warmMs: number;
}

interface Arrival {
  atMs: number;
  candidate: number;
}

/** "expert 27, hard 3": which levels the calibration found in the 50–500 ms band. */
function levelCounts(cands: readonly Pick<Candidate, 'level'>[]): string {
  const n = new Map<BotLevel, number>();
  for (const c of cands) n.set(c.level, (n.get(c.level) ?? 0) + 1);
  return [...n].map(([level, count]) => `${level} ${count}`).join(', ');
}

/** Positions from seeded games, searched once on this (warm) thread; keeps those of 50–500 ms. */
function calibrate(count: number, seed: number): Candidate[] {
  const levels: BotLevel[] = ['medium', 'hard', 'expert'];
  const out: Candidate[] = [];
  const pick = rng(seed);
  // JIT warm-up so the calibration measures warm code, as a warm worker runs it.
  const w = newGame({ players: 2, seed: 'calibrate-warmup' });
  for (let i = 0; i < 3; i++) botSearch({ state: hideBag(w.clone()).buffer, level: DEFAULTS.warmupLevel, seed: i, deadline: Date.now() + 5000 });
  // Levels take turns by attempt, not by find: a level whose searches all fall under 50 ms
  // (a faster engine) is skipped instead of stalling the calibration.
  let attempts = 0;
  for (let g = 0; out.length < count && g < 50; g++) {
    const s = newGame({ players: 2, seed: `pool-study-${seed}-${g}` });
    for (let t = 0; !s.finished && out.length < count; t++) {
      const moves = legalMoves(s);
      if (t % 7 === 3) {
        const level = levels[attempts++ % levels.length];
        const state = hideBag(s.clone()).buffer;
        const r = botSearch({ state: state.slice(0), level, seed: t, deadline: Date.now() + 5000 });
        if (r.runMs >= 50 && r.runMs <= 500) out.push({ state, level, seed: t, warmMs: r.runMs });
      }
      playMove(s, moves[Math.floor(pick() * moves.length)]);
      if (t > 60) break;
    }
  }
  return out;
}

/** Bursts plus a Poisson trickle, the same for every strategy. */
function workload(o: StudyOptions, candidates: number): Arrival[] {
  const r = rng(o.seed * 31 + 1);
  const end = o.seconds * 1000;
  const out: Arrival[] = [];
  for (let t = 300; t < end; t += o.burstEveryMs * (0.7 + 0.6 * r())) {
    const n = o.burst[0] + Math.floor(r() * (o.burst[1] - o.burst[0] + 1));
    for (let i = 0; i < n; i++) out.push({ atMs: t + r() * 100, candidate: Math.floor(r() * candidates) });
  }
  if (o.tricklePerSec > 0)
    for (let t = -Math.log(1 - r()) * (1000 / o.tricklePerSec); t < end; t += -Math.log(1 - r()) * (1000 / o.tricklePerSec)) out.push({ atMs: t, candidate: Math.floor(r() * candidates) });
  return out.sort((a, b) => a.atMs - b.atMs);
}

export interface SearchRecord {
  submitMs: number;
  queueWaitMs: number;
  runMs: number;
  totalMs: number;
  cpuMs: number;
  warmMs: number;
  threadId: number;
  level: BotLevel;
}

export interface StrategyResult {
  id: string;
  label: string;
  config: Omit<Strategy, 'id' | 'label'>;
  searches: number;
  failed: number;
  /** Worker threads started after the workload began (each is a spawn paid during traffic). */
  spawnsDuringRun: number;
  threadsBefore: number;
  /** Worker CPU not spent in search tasks (module load, warm-up, dispatch), ms. */
  spawnCpuBeforeMs: number;
  spawnCpuDuringMs: number;
  computeCpuMs: number;
  spawnToComputeDuring: number;
  readyMs: number;
  /** Median of run time / the same search's warm run time (JIT-cold code runs slower). */
  runSlowdown: number;
  queueWaitMs: Summary;
  runMs: Summary;
  totalMs: Summary;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  mainThreadCpuMs: number;
  processCpuCores: number;
  http: CannonResult | null;
  records: SearchRecord[];
}

async function runStrategy(s: Strategy, o: StudyOptions, cands: Candidate[], arrivals: Arrival[]): Promise<StrategyResult> {
  const app = Fastify({ logger: false });
  const games = Array.from({ length: 50 }, (_, i) => ({
    id: `g${i}`,
    status: 'waiting',
    seats: [
      { seat: 0, kind: 'person', name: 'x' },
      { seat: 1, kind: 'bot', level: 'hard' },
    ],
  }));
  app.get('/api/games', async () => ({ games }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/games`;

  const workerFile = benchFile('pool-study/worker.ts');
  const created: { threadId: number; at: number }[] = [];
  const t0 = performance.now();
  let pool: Piscina | null = null;
  const warmCpu = new Map<number, number>();
  if (s.kind === 'piscina') {
    pool = new Piscina({ filename: workerFile, minThreads: s.min, maxThreads: s.max, idleTimeout: s.idleTimeout, atomics: s.atomics, execArgv: [], concurrentTasksPerWorker: 1, maxQueue: Infinity });
    pool.on('workerCreate', (w: { threadId: number }) => created.push({ threadId: w.threadId, at: performance.now() }));
    if (s.warm) {
      const barrier = new SharedArrayBuffer(8);
      const task: WarmupTask = { level: DEFAULTS.warmupLevel, seed: 1, moves: 4, budgetMs: 300, barrier, workers: s.min, barrierTimeoutMs: 20000 };
      const results = (await Promise.all(Array.from({ length: s.min }, (_, i) => pool!.run({ ...task, seed: i + 1 }, { name: 'warmup' })))) as WarmupResult[];
      for (const r of results) warmCpu.set(r.worker.threadId, r.warmCpuMs);
    } else {
      await sleep(300); // let the minimum thread(s) come online, without warming them
    }
  }
  const readyMs = performance.now() - t0;
  const threadsBefore = pool?.threads.length ?? 0;

  // Measure from here.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const cannon = runCannonChild({ title: s.id, url, connections: 4, duration: Math.ceil(o.seconds + 1.5), overallRate: o.httpRate }).catch((e: Error) => {
    progress(`  autocannon failed: ${e.message}`);
    return null;
  });
  await sleep(700); // autocannon child start-up
  loop.enable();
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const w0 = performance.now();
  const w0Epoch = performance.timeOrigin + w0;
  const spawnsBefore = created.length;
  // Threads alive before the workload (a worker's performance.timeOrigin is the process's, so
  // threads are told apart by id, not by their clocks).
  const preexisting = new Set(created.map((c) => c.threadId));
  let freshSpawns = 0;
  const records: SearchRecord[] = [];
  const threads = new Map<number, { lastCpu: number; compute: number; during: boolean }>();
  let failed = 0;

  const submit = async (a: Arrival): Promise<void> => {
    const c = cands[a.candidate];
    const task: SearchTask = { state: c.state.slice(0), level: c.level, seed: c.seed, deadline: Date.now() + 10_000 };
    const submitMs = performance.now() - w0;
    let r: StudyResult;
    try {
      if (pool) {
        r = (await pool.run(task, { transferList: [task.state] as never })) as StudyResult;
      } else {
        freshSpawns++;
        r = await new Promise<StudyResult>((resolve, reject) => {
          const w = new Worker(benchFile('pool-study/fresh.ts'), { workerData: { task }, transferList: [task.state], execArgv: [] });
          w.once('message', resolve);
          w.once('error', reject);
          w.once('exit', (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
        });
      }
    } catch (e) {
      failed++;
      progress(`  search failed: ${(e as Error).message}`);
      return;
    }
    const totalMs = performance.now() - w0 - submitMs;
    const startMs = r.startEpochMs - w0Epoch;
    const th = threads.get(r.worker.threadId) ?? { lastCpu: 0, compute: 0, during: !preexisting.has(r.worker.threadId) };
    th.lastCpu = Math.max(th.lastCpu, r.threadCpuMs);
    th.compute += r.cpuMs;
    threads.set(r.worker.threadId, th);
    records.push({
      submitMs: round(submitMs, 2),
      queueWaitMs: round(Math.max(0, startMs - submitMs), 3),
      runMs: round(r.runMs, 2),
      totalMs: round(totalMs, 2),
      cpuMs: round(r.cpuMs, 2),
      warmMs: round(c.warmMs, 1),
      threadId: r.worker.threadId,
      level: c.level,
    });
  };

  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    let left = arrivals.length;
    if (left === 0) resolve();
    for (const a of arrivals)
      setTimeout(() => {
        pending.push(submit(a));
        if (--left === 0) resolve();
      }, a.atMs);
  });
  const all = Promise.all(pending);
  let giveUp: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise((r) => (giveUp = setTimeout(r, 60_000)))]);
  clearTimeout(giveUp);
  loop.disable();
  const cpu = process.cpuUsage(cpu0);
  const main = process.threadCpuUsage(main0);
  const wallMs = performance.now() - w0;
  if (pool) await pool.destroy();
  const http = await cannon;
  await app.close();

  let spawnBefore = 0;
  let spawnDuring = 0;
  let compute = 0;
  for (const cpu of warmCpu.values()) spawnBefore += cpu;
  for (const [id, t] of threads) {
    const overhead = Math.max(0, t.lastCpu - t.compute);
    compute += t.compute;
    const warm = warmCpu.get(id);
    if (warm !== undefined) spawnDuring += Math.max(0, overhead - warm);
    else if (t.during) spawnDuring += overhead;
    else spawnBefore += overhead;
  }
  const ld = (q: number) => round(Math.max(0, loop.percentile(q) / 1e6 - 1), 2);
  const slow = records.map((r) => r.runMs / r.warmMs).sort((a, b) => a - b);
  return {
    id: s.id,
    label: s.label,
    config: { kind: s.kind, min: s.min, max: s.max, idleTimeout: s.idleTimeout, atomics: s.atomics, warm: s.warm },
    searches: records.length,
    failed,
    spawnsDuringRun: pool ? created.length - spawnsBefore : freshSpawns,
    threadsBefore,
    spawnCpuBeforeMs: round(spawnBefore),
    spawnCpuDuringMs: round(spawnDuring),
    computeCpuMs: round(compute),
    spawnToComputeDuring: compute > 0 ? round(spawnDuring / compute, 3) : 0,
    readyMs: round(readyMs),
    runSlowdown: round(slow[Math.floor(slow.length / 2)] ?? 0, 2),
    queueWaitMs: summarize(
      records.map((r) => r.queueWaitMs),
      2,
    ),
    runMs: summarize(records.map((r) => r.runMs)),
    totalMs: summarize(records.map((r) => r.totalMs)),
    eventLoopDelayMs: { p50: ld(50), p99: ld(99), max: round(Math.max(0, loop.max / 1e6 - 1), 2) },
    mainThreadCpuMs: round((main.user + main.system) / 1000),
    processCpuCores: round((cpu.user + cpu.system) / 1000 / wallMs, 2),
    http,
    records: records.sort((a, b) => a.submitMs - b.submitMs),
  };
}

export interface StudyReport {
  machine: MachineInfo;
  machineEnd: MachineInfo;
  options: StudyOptions;
  workload: { searches: number; offeredCpuMsPerSec: number; candidates: { level: BotLevel; warmMs: number }[] };
  results: StrategyResult[];
  targets: { fixedSpawnsAfterReady: number; fixedP99Ms: number; dynamicP99Ms: number | null; ratio: number | null; met2x: boolean | null };
}

export async function runPoolStudy(o: StudyOptions): Promise<{ report: StudyReport; markdown: string }> {
  const m0 = machine();
  progress(`pool study: calibrating ${o.candidates} search positions (50–500 ms each) on the main thread`);
  const cands = calibrate(o.candidates, o.seed);
  if (cands.length === 0) throw new Error('no search position of 50–500 ms found');
  const arrivals = workload(o, cands.length);
  const offered = arrivals.reduce((n, a) => n + cands[a.candidate].warmMs, 0) / o.seconds;
  progress(`pool study: ${arrivals.length} searches over ${o.seconds} s (${round(offered / 1000, 2)} CPU-s offered per second), warm costs ${cands.map((c) => Math.round(c.warmMs)).join(' ')} ms`);
  const results: StrategyResult[] = [];
  for (const s of strategies().filter((x) => !o.only || o.only.includes(x.id))) {
    progress(`pool study: ${s.label} …`);
    const r = await runStrategy(s, o, cands, arrivals);
    progress(
      `  ${r.searches} searches, ${r.spawnsDuringRun} spawns during run; total p50/p99 ${r.totalMs.p50}/${r.totalMs.p99} ms (queue p99 ${r.queueWaitMs.p99}, run p99 ${r.runMs.p99}); loop p99/max ${r.eventLoopDelayMs.p99}/${r.eventLoopDelayMs.max} ms; HTTP p99 ${r.http?.latencyMs.p99 ?? '–'} ms`,
    );
    results.push(r);
    await sleep(500);
  }
  const fixed = results.find((r) => r.id === 'fixed');
  const dynamic = results.find((r) => r.id === 'dynamic');
  const report: StudyReport = {
    machine: m0,
    machineEnd: machine(),
    options: o,
    workload: { searches: arrivals.length, offeredCpuMsPerSec: round(offered), candidates: cands.map((c) => ({ level: c.level, warmMs: round(c.warmMs) })) },
    results,
    targets: {
      fixedSpawnsAfterReady: fixed?.spawnsDuringRun ?? -1,
      fixedP99Ms: fixed?.totalMs.p99 ?? -1,
      dynamicP99Ms: dynamic?.totalMs.p99 ?? null,
      ratio: fixed && dynamic ? round(dynamic.totalMs.p99 / fixed.totalMs.p99, 2) : null,
      met2x: fixed && dynamic ? dynamic.totalMs.p99 >= 2 * fixed.totalMs.p99 : null,
    },
  };
  if (o.plotDir) writePlots(report, o.plotDir);
  return { report, markdown: studyMarkdown(report) };
}

function writePlots(r: StudyReport, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const panels = r.results.map((s) => ({
    title: s.label,
    series: [
      { name: 'queue wait (incl. spawn)', points: s.records.map((x) => [x.submitMs / 1000, x.queueWaitMs] as [number, number]) },
      { name: 'run time', points: s.records.map((x) => [x.submitMs / 1000, x.runMs] as [number, number]) },
    ],
  }));
  writeFileSync(
    join(dir, 'pool-study-timeline.svg'),
    scatterPanels({ title: 'Per search: queue wait and run time against submit time', panels, xLabel: 'submitted at (s into the workload)', yLabel: 'ms', columns: 2 }),
  );
  const groups = r.results.map((s) => s.id);
  writeFileSync(
    join(dir, 'pool-study-latency.svg'),
    bars({
      title: 'Bot search latency by strategy (ms)',
      groups,
      yLabel: 'ms',
      series: [
        { name: 'queue wait p99', values: r.results.map((s) => s.queueWaitMs.p99) },
        { name: 'run p99', values: r.results.map((s) => s.runMs.p99) },
        { name: 'total p50', values: r.results.map((s) => s.totalMs.p50) },
        { name: 'total p99', values: r.results.map((s) => s.totalMs.p99) },
      ],
    }),
  );
  writeFileSync(
    join(dir, 'pool-study-cpu.svg'),
    bars({
      title: 'Worker CPU: spawning against computing (ms)',
      groups,
      yLabel: 'CPU ms',
      series: [
        { name: 'spawn before ready', values: r.results.map((s) => s.spawnCpuBeforeMs) },
        { name: 'spawn during run', values: r.results.map((s) => s.spawnCpuDuringMs) },
        { name: 'compute', values: r.results.map((s) => s.computeCpuMs) },
      ],
    }),
  );
  writeFileSync(
    join(dir, 'pool-study-loop.svg'),
    bars({
      title: 'Main thread: event-loop delay and HTTP latency (ms)',
      groups,
      yLabel: 'ms',
      target: { value: 20, label: 'loop max target 20 ms' },
      series: [
        { name: 'loop delay p99', values: r.results.map((s) => s.eventLoopDelayMs.p99) },
        { name: 'loop delay max', values: r.results.map((s) => s.eventLoopDelayMs.max) },
        { name: 'HTTP p99', values: r.results.map((s) => s.http?.latencyMs.p99 ?? null) },
      ],
    }),
  );
  progress(`pool study: plots in ${dir}/pool-study-*.svg`);
}

function studyMarkdown(r: StudyReport): string {
  const o = r.options;
  const rows = r.results.map((s) => [
    s.label,
    s.searches + (s.failed ? ` (${s.failed} failed)` : ''),
    s.spawnsDuringRun,
    `${fmt(s.spawnCpuBeforeMs, 0)} / ${fmt(s.spawnCpuDuringMs, 0)}`,
    fmt(s.computeCpuMs, 0),
    fmt(s.spawnToComputeDuring, 2),
    `${s.runSlowdown}×`,
    `${fmt(s.queueWaitMs.p50, 2)} / ${fmt(s.queueWaitMs.p99)} / ${fmt(s.queueWaitMs.max)}`,
    `${s.runMs.p50} / ${s.runMs.p99} / ${s.runMs.max}`,
    `${s.totalMs.p50} / ${s.totalMs.p95} / ${s.totalMs.p99} / ${s.totalMs.max}`,
    `${s.eventLoopDelayMs.p99} / ${s.eventLoopDelayMs.max}`,
    s.http ? `${s.http.latencyMs.p99} / ${s.http.latencyMs.max} (${s.http.requestsPerSec}/s${s.http.errors + s.http.non2xx ? `, ${s.http.errors + s.http.non2xx} errors` : ''})` : '–',
    fmt(s.processCpuCores, 2),
  ]);
  const t = r.targets;
  const fixed = r.results.find((s) => s.id === 'fixed');
  const plots = o.plotDir
    ? `\n![queue wait and run time per search](bench/pool-study-timeline.svg)\n\n![latency by strategy](bench/pool-study-latency.svg)\n![spawn against compute CPU](bench/pool-study-cpu.svg)\n![event loop and HTTP](bench/pool-study-loop.svg)\n`
    : '';
  return `Measured by \`bench/pool-study/run.ts\` (\`npm run bench\` runs it for ${STUDY_MODES.quick.seconds} s per strategy, \`npm run bench:full\` for ${STUDY_MODES.full.seconds} s). Machine: ${machineLine(r.machine, r.machineEnd)}.

**Workload** (identical for every strategy): ${r.workload.searches} real bot searches over ${o.seconds} s — bursts of ${o.burst[0]}–${o.burst[1]} searches every ~${o.burstEveryMs / 1000} s plus a Poisson trickle of ${o.tricklePerSec}/s — drawn from ${r.workload.candidates.length} positions (${levelCounts(r.workload.candidates)}) whose warm single-thread search takes 50–500 ms (${r.workload.candidates.map((c) => Math.round(c.warmMs)).join(', ')} ms); offered ≈ ${round(r.workload.offeredCpuMsPerSec / 1000, 2)} CPU-seconds per second. The worker is the server's own pool worker (\`server/pool/worker.ts\`, compiled), plus thread-CPU accounting. Searches are iteration-bounded, so CPU contention shows up as longer run times. The same process runs a small fastify server under a steady ${o.httpRate} req/s autocannon load (4 connections, from a child process); event-loop delay is \`monitorEventLoopDelay\` at 1 ms resolution, resolution subtracted. Every pool has an unbounded queue here (the server bounds its own); atomics \`'disabled'\` unless stated; warm pools run 4 \`${DEFAULTS.warmupLevel}\` warm-up searches per worker before the workload.

- **spawns** = worker threads started after the workload began. **spawn CPU** = worker-thread CPU not spent inside search tasks (module load, JIT warm-up, piscina dispatch), measured with \`process.threadCpuUsage()\` in the worker: before ready / during the run. **compute** = CPU inside the searches. **cold ×** = median run time over the same search's warm run time (code not yet optimised runs slower).
- **queue wait** = submit → the task starts in a worker (for a fresh worker: includes the thread's start-up); **run** = inside the worker; **total** = submit → result on the main thread.

${table(['strategy', 'searches', 'spawns', 'spawn CPU ms (before / during)', 'compute CPU ms', 'spawn÷compute (during)', 'cold ×', 'queue wait p50 / p99 / max ms', 'run p50 / p99 / max ms', 'total p50 / p95 / p99 / max ms', 'loop delay p99 / max ms', 'HTTP p99 / max ms', 'process CPU (cores)'], rows)}
${plots}
**Targets.** Fixed warm pool: ${t.fixedSpawnsAfterReady} spawns after ready (target 0) — ${t.fixedSpawnsAfterReady === 0 ? 'met' : 'MISSED'}. Fixed pool bot p99 under bursts ${t.fixedP99Ms} ms against the dynamic pool's ${t.dynamicP99Ms ?? '–'} ms: ${t.ratio === null ? 'not measured' : `${t.ratio}× (target ≥ 2×) — ${t.met2x ? 'met' : 'MISSED'}`}.${fixed ? ` Event loop with the fixed pool: p99 ${fixed.eventLoopDelayMs.p99} ms, max ${fixed.eventLoopDelayMs.max} ms.` : ''}
`;
}

// Run directly: node dist/bench/pool-study/run.js [tiny|quick|full]
if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = (process.argv[2] ?? 'quick') as keyof typeof STUDY_MODES;
  const { writeReport } = await import('../report.ts');
  const { report, markdown } = await runPoolStudy(STUDY_MODES[mode]);
  writeReport('pool-study', 'Pool study: spawn against compute, five strategies', markdown, report);
}
