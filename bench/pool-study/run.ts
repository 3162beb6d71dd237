// The spawn-vs-compute pool study: seven ways to run bot searches, side by side, on the same
// bursty workload of real 50–500 ms searches, each with a small fastify server in this process
// under a steady autocannon load (from a child process) and the event loop measured. Five are
// pool strategies; two are what a user would otherwise pick: searches on the main thread (the
// boardgame.io / Colyseus default) and one worker_threads Worker per game.
//
//   node dist/bench/pool-study/run.js [quick|full|tiny] [--only=fixed,main,per-game]

import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Piscina } from 'piscina';
import { legalMoves, newGame, playMove } from '../../bot-engine/game.ts';
import { hideBag } from '../../bot-engine/rules.ts';
import { boundedSearch, type SearchTask } from '../../server/pool/search.ts';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { WarmupResult, WarmupTask } from '../../server/pool/worker.ts';
import { DEFAULTS } from '../../server/config.ts';
import { decidePoolSize } from '../../server/pool/sizing.ts';
import { runCannonChild, type CannonResult } from '../lib/cannon.ts';
import { benchFile } from '../lib/paths.ts';
import { machine, machineLine, type MachineInfo } from '../lib/proc.ts';
import { fmt, percentile, progress, round, sleep, summarize, table, type Summary } from '../lib/stats.ts';
import { rng } from '../../support/random.ts';
import { bars, scatterPanels } from '../../client/src/charts.ts';
import { TOTAL_TILES } from '../../bot-engine/tiles.ts';
import study, { type StudyResult } from './worker.ts';
import { GameWorkers } from './game-workers.ts';

export const STUDY_TITLE = 'Pool study: spawn against compute, seven ways to run bot searches';
/** The event-loop max the server targets under load (the games benchmark's target too). */
const LOOP_MAX_TARGET_MS = 20;

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
  /** Simulated games the searches belong to (only "one Worker per game" uses them): this many
   * at a time, each lasting a number of bot searches drawn from this range. */
  games: { concurrent: number; searchesPerGame: [number, number] };
  /** Strategy ids to run (default all). */
  only?: string[];
  /** Where the SVG plots go (relative to cwd); null = none. */
  plotDir: string | null;
}

export const STUDY_MODES: Record<'tiny' | 'quick' | 'full', StudyOptions> = {
  tiny: {
    seconds: 2,
    burst: [3, 4],
    burstEveryMs: 1000,
    tricklePerSec: 0.5,
    httpRate: 100,
    candidates: 5,
    seed: 7,
    games: { concurrent: 4, searchesPerGame: [1, 2] },
    only: ['fixed', 'fresh', 'main', 'per-game'],
    plotDir: null,
  },
  quick: { seconds: 10, burst: [4, 7], burstEveryMs: 2500, tricklePerSec: 1, httpRate: 200, candidates: 14, seed: 7, games: { concurrent: 7, searchesPerGame: [1, 4] }, plotDir: 'docs/bench' },
  full: { seconds: 45, burst: [4, 8], burstEveryMs: 3000, tricklePerSec: 1, httpRate: 200, candidates: 30, seed: 7, games: { concurrent: 8, searchesPerGame: [3, 8] }, plotDir: 'docs/bench' },
};

interface Strategy {
  id: string;
  label: string;
  kind: 'piscina' | 'fresh' | 'main' | 'per-game';
  min: number;
  max: number;
  idleTimeout: number;
  atomics: 'sync' | 'disabled';
  warm: boolean;
}

/** The pool size the server would pick on this machine (server/pool/sizing.ts, no setting). */
export function serverPoolSize(): number {
  return decidePoolSize({ setting: null, reservedCores: DEFAULTS.reservedCores, cgroupRoot: DEFAULTS.cgroupRoot }).workers;
}

/** The seven ways. Fixed and dynamic are compared at the same maximum thread count, at the size
 * the server picks (`n`) and one more: a growing and shrinking pool given the same threads as the
 * fixed one, so only spawning on demand and idling out differ. */
export function strategies(n = serverPoolSize(), cores = availableParallelism()): Strategy[] {
  const fixed = (size: number, id: string, label: string): Strategy => ({
    id,
    label: `${label} fixed warm ${size}`,
    kind: 'piscina',
    min: size,
    max: size,
    idleTimeout: Infinity,
    atomics: 'disabled',
    warm: true,
  });
  const dynamic = (size: number, id: string, label: string): Strategy => ({
    id,
    label: `${label} dynamic 1–${size}`,
    kind: 'piscina',
    min: 1,
    max: size,
    idleTimeout: 0,
    atomics: 'disabled',
    warm: false,
  });
  return [
    fixed(n, 'fixed', '(1)'),
    dynamic(n, 'dynamic', '(2)'),
    fixed(n + 1, 'fixed-more', '(1b)'),
    dynamic(n + 1, 'dynamic-more', '(2b)'),
    { id: 'fresh', label: '(3) fresh per search', kind: 'fresh', min: 0, max: Infinity, idleTimeout: 0, atomics: 'disabled', warm: false },
    { id: 'oversub', label: `(4) fixed warm ${2 * cores}`, kind: 'piscina', min: 2 * cores, max: 2 * cores, idleTimeout: Infinity, atomics: 'disabled', warm: true },
    { ...fixed(n, 'fixed-sync', '(5)'), label: `(5) fixed warm ${n}, atomics sync`, atomics: 'sync' },
    { id: 'main', label: '(6) main thread, no worker', kind: 'main', min: 0, max: 0, idleTimeout: 0, atomics: 'disabled', warm: true },
    { id: 'per-game', label: '(7) one Worker per game', kind: 'per-game', min: 0, max: Infinity, idleTimeout: 0, atomics: 'disabled', warm: false },
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
  /** Index of the burst it came in, -1 for the trickle. */
  burst: number;
  /** The simulated game it is a bot move of (`assignGames`). */
  game: number;
}

export interface GamePlan {
  id: number;
  /** Which of the concurrent games' places it takes. */
  slot: number;
  /** When it starts (its Worker is spawned), ms into the workload; -1: already running before. */
  startMs: number;
  /** Its bot searches: the game ends (its Worker is terminated) when the last one answers. */
  searches: number;
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
  for (let i = 0; i < 3; i++) boundedSearch({ state: hideBag(w.clone()).buffer, level: DEFAULTS.warmupLevel, seed: i, deadline: Date.now() + 5000 });
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
        const r = boundedSearch({ state: state.slice(0), level, seed: t, deadline: Date.now() + 5000 });
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
  let burst = 0;
  for (let t = 300; t < end; t += o.burstEveryMs * (0.7 + 0.6 * r()), burst++) {
    const n = o.burst[0] + Math.floor(r() * (o.burst[1] - o.burst[0] + 1));
    for (let i = 0; i < n; i++) out.push({ atMs: t + r() * 100, candidate: Math.floor(r() * candidates), burst, game: -1 });
  }
  if (o.tricklePerSec > 0)
    for (let t = -Math.log(1 - r()) * (1000 / o.tricklePerSec); t < end; t += -Math.log(1 - r()) * (1000 / o.tricklePerSec))
      out.push({ atMs: t, candidate: Math.floor(r() * candidates), burst: -1, game: -1 });
  return out.sort((a, b) => a.atMs - b.atMs);
}

/** Gives every search a game (its own seed, so the arrivals above stay what they were): a burst's
 * searches go to different games (bots of different games turning at once), the trickle to any;
 * each place's searches are cut into consecutive games of `searchesPerGame`, and the next game
 * in a place starts when its predecessor's last search arrives. */
function assignGames(arrivals: Arrival[], g: StudyOptions['games'], seed: number): GamePlan[] {
  const r = rng(seed * 53 + 5);
  const freeSlots = new Map<number, number[]>();
  const slotOf = arrivals.map((a) => {
    if (a.burst < 0) return Math.floor(r() * g.concurrent);
    let free = freeSlots.get(a.burst);
    if (!free?.length) {
      free = Array.from({ length: g.concurrent }, (_, i) => i);
      for (let i = free.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [free[i], free[j]] = [free[j], free[i]];
      }
      freeSlots.set(a.burst, free);
    }
    return free.pop()!;
  });
  const plans: GamePlan[] = [];
  for (let slot = 0; slot < g.concurrent; slot++) {
    let game: GamePlan | null = null;
    let left = 0;
    let lastAtMs = -1;
    arrivals.forEach((a, i) => {
      if (slotOf[i] !== slot) return;
      if (!game || left === 0) {
        game = { id: plans.length, slot, startMs: game ? round(lastAtMs, 1) : -1, searches: 0 };
        plans.push(game);
        left = g.searchesPerGame[0] + Math.floor(r() * (g.searchesPerGame[1] - g.searchesPerGame[0] + 1));
      }
      a.game = game.id;
      game.searches++;
      left--;
      lastAtMs = a.atMs;
    });
  }
  return plans;
}

/** Strategy "main thread": each search runs synchronously on this event loop, one at a time in
 * arrival order, each in its own macrotask so requests are served between two searches (as a
 * room's message handler would run its bot). */
function mainThreadRunner(): (task: SearchTask) => Promise<StudyResult> {
  const queue: { task: SearchTask; resolve: (r: StudyResult) => void; reject: (e: Error) => void }[] = [];
  let running = false;
  const next = (): void => {
    const job = queue.shift();
    if (!job) {
      running = false;
      return;
    }
    try {
      job.resolve(study(job.task));
    } catch (e) {
      job.reject(e as Error);
    }
    setImmediate(next);
  };
  return (task) =>
    new Promise<StudyResult>((resolve, reject) => {
      queue.push({ task, resolve, reject });
      if (!running) {
        running = true;
        setImmediate(next);
      }
    });
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
  /** Most worker threads alive at once (pools: their threads; per game: games running). */
  peakThreads: number;
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

async function runStrategy(s: Strategy, o: StudyOptions, cands: Candidate[], arrivals: Arrival[], plans: GamePlan[]): Promise<StrategyResult> {
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
  const gameWorkers = s.kind === 'per-game' ? new GameWorkers() : null;
  // Games already running when the workload begins have their threads up (loaded, not warmed:
  // each game's Worker warms its code on the game's own searches).
  if (gameWorkers) await Promise.all(plans.filter((g) => g.startMs < 0).map((g) => gameWorkers.start(g.id, g.searches)));
  const runOnMain = s.kind === 'main' ? mainThreadRunner() : null;
  const readyMs = performance.now() - t0;
  const threadsBefore = pool?.threads.length ?? gameWorkers?.threadIds.length ?? 0;
  let liveFresh = 0;
  let peakThreads = threadsBefore;
  const threadsNow = () => (pool ? pool.threads.length : gameWorkers ? gameWorkers.live : liveFresh);

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
  const spawned = () => (gameWorkers ? gameWorkers.threadIds.length : created.length);
  const spawnsBefore = spawned();
  // Threads alive before the workload (a worker's performance.timeOrigin is the process's, so
  // threads are told apart by id, not by their clocks).
  const preexisting = new Set([...created.map((c) => c.threadId), ...(gameWorkers?.threadIds ?? [])]);
  let freshSpawns = 0;
  const records: SearchRecord[] = [];
  const threads = new Map<number, { lastCpu: number; compute: number; during: boolean }>();
  let compute = 0;
  let failed = 0;

  const submit = async (a: Arrival): Promise<void> => {
    const c = cands[a.candidate];
    const task: SearchTask = { state: c.state.slice(0), level: c.level, seed: c.seed, deadline: Date.now() + 10_000 };
    // Latency counts from when the search was due: a timer fires late while the loop is blocked
    // (the main-thread strategy), and that lateness is part of what the bot's player waits.
    const submitMs = a.atMs;
    let r: StudyResult;
    try {
      if (pool) {
        const run = pool.run(task, { transferList: [task.state] as never });
        peakThreads = Math.max(peakThreads, threadsNow());
        r = (await run) as StudyResult;
      } else if (runOnMain) {
        r = await runOnMain(task);
      } else if (gameWorkers) {
        const game = plans[a.game];
        const run = gameWorkers.search(game.id, game.searches, task);
        peakThreads = Math.max(peakThreads, threadsNow());
        r = await run;
      } else {
        freshSpawns++;
        peakThreads = Math.max(peakThreads, ++liveFresh);
        r = await new Promise<StudyResult>((resolve, reject) => {
          const w = new Worker(benchFile('pool-study/fresh.ts'), { workerData: { task }, transferList: [task.state], execArgv: [] });
          w.once('message', resolve);
          w.once('error', reject);
          w.once('exit', (code) => {
            liveFresh--;
            if (code !== 0) reject(new Error(`worker exited ${code}`));
          });
        });
      }
    } catch (e) {
      failed++;
      progress(`  search failed: ${(e as Error).message}`);
      return;
    }
    const totalMs = performance.now() - w0 - submitMs;
    const startMs = r.startEpochMs - w0Epoch;
    compute += r.cpuMs;
    // Worker threads only: the main thread's CPU outside searches is the server's, not a spawn.
    if (!runOnMain) {
      const th = threads.get(r.worker.threadId) ?? { lastCpu: 0, compute: 0, during: !preexisting.has(r.worker.threadId) };
      th.lastCpu = Math.max(th.lastCpu, r.threadCpuMs);
      th.compute += r.cpuMs;
      threads.set(r.worker.threadId, th);
    }
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
  // A game starting during the workload spawns its Worker then, before its first bot move.
  if (gameWorkers) for (const g of plans) if (g.startMs >= 0) setTimeout(() => void gameWorkers.start(g.id, g.searches), g.startMs);
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
  await gameWorkers?.close();
  const http = await cannon;
  await app.close();

  let spawnBefore = 0;
  let spawnDuring = 0;
  for (const cpu of warmCpu.values()) spawnBefore += cpu;
  for (const [id, t] of threads) {
    const overhead = Math.max(0, t.lastCpu - t.compute);
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
    spawnsDuringRun: pool || gameWorkers ? spawned() - spawnsBefore : freshSpawns,
    threadsBefore,
    peakThreads: gameWorkers ? gameWorkers.peakLive : peakThreads,
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
  workload: {
    searches: number;
    offeredCpuMsPerSec: number;
    candidates: { level: BotLevel; warmMs: number }[];
    games: { count: number; runningAtStart: number; startedDuring: number; searchesPerGameMedian: number; plans: GamePlan[] };
  };
  results: StrategyResult[];
  targets: { fixedSpawnsAfterReady: number; fixedP99Ms: number; dynamicP99Ms: number | null; ratio: number | null; met2x: boolean | null; sameMaxThreads: SameMaxPair[] };
}

/** A fixed and a dynamic pool with the same maximum thread count, bot p99 side by side. */
export interface SameMaxPair {
  threads: number;
  fixedP99Ms: number;
  dynamicP99Ms: number;
  /** dynamic p99 ÷ fixed p99: above 1, the fixed pool answers sooner. */
  ratio: number;
  dynamicSpawnsDuringRun: number;
}

function sameMaxPairs(results: StrategyResult[]): SameMaxPair[] {
  const pairs: SameMaxPair[] = [];
  for (const [f, d] of [
    ['fixed', 'dynamic'],
    ['fixed-more', 'dynamic-more'],
  ]) {
    const fixed = results.find((r) => r.id === f);
    const dynamic = results.find((r) => r.id === d);
    if (!fixed || !dynamic) continue;
    pairs.push({
      threads: fixed.config.max,
      fixedP99Ms: fixed.totalMs.p99,
      dynamicP99Ms: dynamic.totalMs.p99,
      ratio: round(dynamic.totalMs.p99 / fixed.totalMs.p99, 2),
      dynamicSpawnsDuringRun: dynamic.spawnsDuringRun,
    });
  }
  return pairs;
}

export async function runPoolStudy(o: StudyOptions): Promise<{ report: StudyReport; markdown: string }> {
  const m0 = machine();
  progress(`pool study: calibrating ${o.candidates} search positions (50–500 ms each) on the main thread`);
  const cands = calibrate(o.candidates, o.seed);
  if (cands.length === 0) throw new Error('no search position of 50–500 ms found');
  const arrivals = workload(o, cands.length);
  const plans = assignGames(arrivals, o.games, o.seed);
  const offered = arrivals.reduce((n, a) => n + cands[a.candidate].warmMs, 0) / o.seconds;
  progress(`pool study: ${arrivals.length} searches over ${o.seconds} s (${round(offered / 1000, 2)} CPU-s offered per second), warm costs ${cands.map((c) => Math.round(c.warmMs)).join(' ')} ms`);
  const results: StrategyResult[] = [];
  for (const s of strategies().filter((x) => !o.only || o.only.includes(x.id))) {
    progress(`pool study: ${s.label} …`);
    const r = await runStrategy(s, o, cands, arrivals, plans);
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
    workload: {
      searches: arrivals.length,
      offeredCpuMsPerSec: round(offered),
      candidates: cands.map((c) => ({ level: c.level, warmMs: round(c.warmMs) })),
      games: {
        count: plans.length,
        runningAtStart: plans.filter((g) => g.startMs < 0).length,
        startedDuring: plans.filter((g) => g.startMs >= 0).length,
        searchesPerGameMedian: percentile(
          plans.map((g) => g.searches).sort((a, b) => a - b),
          50,
        ),
        plans,
      },
    },
    results,
    targets: {
      fixedSpawnsAfterReady: fixed?.spawnsDuringRun ?? -1,
      fixedP99Ms: fixed?.totalMs.p99 ?? -1,
      dynamicP99Ms: dynamic?.totalMs.p99 ?? null,
      ratio: fixed && dynamic ? round(dynamic.totalMs.p99 / fixed.totalMs.p99, 2) : null,
      met2x: fixed && dynamic ? dynamic.totalMs.p99 >= 2 * fixed.totalMs.p99 : null,
      sameMaxThreads: sameMaxPairs(results),
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
    s.peakThreads,
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

**Workload** (identical for every way): ${r.workload.searches} real bot searches over ${o.seconds} s — bursts of ${o.burst[0]}–${o.burst[1]} searches every ~${o.burstEveryMs / 1000} s plus a Poisson trickle of ${o.tricklePerSec}/s — drawn from ${r.workload.candidates.length} positions (${levelCounts(r.workload.candidates)}) whose warm single-thread search takes 50–500 ms (${r.workload.candidates.map((c) => Math.round(c.warmMs)).join(', ')} ms); offered ≈ ${round(r.workload.offeredCpuMsPerSec / 1000, 2)} CPU-seconds per second. The worker is the server's own pool worker (\`server/pool/worker.ts\`, compiled), plus thread-CPU accounting. Searches are iteration-bounded, so CPU contention shows up as longer run times. The same process runs a small fastify server under a steady ${o.httpRate} req/s autocannon load (4 connections, from a child process); event-loop delay is \`monitorEventLoopDelay\` at 1 ms resolution, resolution subtracted. Every pool has an unbounded queue here (the server bounds its own); atomics \`'disabled'\` unless stated; warm pools run 4 \`${DEFAULTS.warmupLevel}\` warm-up searches per worker before the workload.

${peersWorkloadMarkdown(r)}

- **threads** = most worker threads alive at once (seen at each search's submission). **spawns** = worker threads started after the workload began. **spawn CPU** = worker-thread CPU not spent inside search tasks (module load, JIT warm-up, piscina dispatch), measured with \`process.threadCpuUsage()\` in the worker at the end of each of its searches (the same way for a fresh worker and a game's Worker): before ready / during the run. **compute** = CPU inside the searches. **loop delay** is sampled once per 1 ms timer tick, so a loop blocked for 150 ms adds one sample: its p99 hardly moves while the loop is blocked a few times a second; the max and the HTTP p99 show the stalls. **cold ×** = median run time over the same search's warm run time (code not yet optimised runs slower).
- **queue wait** = when the search was due → it starts (for a fresh worker, or a game's Worker spawned just before its first search: includes the thread's start-up; on the main thread: the searches ahead of it); **run** = inside the search; **total** = due → result on the main thread: the **bot** latency. Counting from when the search was due, not when its timer fired, matters on the main thread: a timer fires late while the loop is blocked, and that lateness is part of the player's wait.

${table(['strategy', 'searches', 'threads', 'spawns', 'spawn CPU ms (before / during)', 'compute CPU ms', 'spawn÷compute (during)', 'cold ×', 'queue wait p50 / p99 / max ms', 'run p50 / p99 / max ms', 'total p50 / p95 / p99 / max ms', 'loop delay p99 / max ms', 'HTTP p99 / max ms', 'process CPU (cores)'], rows)}
${plots}
${whyFixedMarkdown(r)}
**Targets.** Fixed warm pool: ${t.fixedSpawnsAfterReady} spawns after ready (target 0) — ${t.fixedSpawnsAfterReady === 0 ? 'met' : 'MISSED'}. Fixed pool bot p99 under bursts ${t.fixedP99Ms} ms against the dynamic pool's ${t.dynamicP99Ms ?? '–'} ms at the same maximum thread count: ${t.ratio === null ? 'not measured' : `${t.ratio}× (target ≥ 2×) — ${t.met2x ? 'met' : 'MISSED'}`}.${sameMaxMarkdown(t.sameMaxThreads)}${fixed ? ` Event loop with the fixed pool: p99 ${fixed.eventLoopDelayMs.p99} ms, max ${fixed.eventLoopDelayMs.max} ms.` : ''}
`;
}

/** Fixed against dynamic at each maximum thread count measured. */
function sameMaxMarkdown(pairs: SameMaxPair[]): string {
  if (pairs.length === 0) return '';
  const line = (p: SameMaxPair) =>
    `${p.threads} ${p.threads === 1 ? 'thread' : 'threads'}: fixed ${p.fixedP99Ms} ms, dynamic ${p.dynamicP99Ms} ms (${p.ratio}×, ${p.dynamicSpawnsDuringRun} ${p.dynamicSpawnsDuringRun === 1 ? 'spawn' : 'spawns'} during the run)`;
  return ` Bot p99, fixed against dynamic with the same maximum (the server's pool size${pairs.length > 1 ? ' and one more' : ''}): ${pairs.map(line).join('; ')}.`;
}

/** How the two peer designs run the same searches, and the games "one Worker per game" needs. */
function peersWorkloadMarkdown(r: StudyReport): string {
  const o = r.options;
  const g = r.workload.games;
  // A 2-player game against one bot: the bot places about half of the tiles after the start tile.
  const botMovesPerGame = Math.floor((TOTAL_TILES - 1) / 2);
  return `**The peers' way.** (6) runs the same search function synchronously on the main thread, one search at a time from a FIFO queue, each in its own macrotask (\`setImmediate\`) so requests are served between two searches: room logic and AI share one loop, the boardgame.io / Colyseus default. Its code is warm (the calibration ran on that thread). (7) gives every game its own \`worker_threads\` Worker (no pool), running the same worker module as the pools: spawned when the game starts, running that game's searches one after another, terminated when the game's last search has answered. For it every search is a bot move of one of ${g.count} simulated games, ${o.games.concurrent} running at a time (the other ways ignore the games and see the same searches at the same times): a burst's searches go to different games (bots of different games moving at once), the trickle's to any running game; a game lasts ${o.games.searchesPerGame[0]}–${o.games.searchesPerGame[1]} bot searches (median ${g.searchesPerGameMedian}), and the next game in its place starts when its predecessor's last search arrives. ${g.runningAtStart} games are running when the workload begins (their Workers spawned and loaded before it, not warmed: a game's Worker warms its code on the game's own searches); ${g.startedDuring} start during it. A whole 2-player game against one bot has about ${botMovesPerGame} bot moves, so games here are shorter: a Worker is spawned about every ${g.searchesPerGameMedian === 1 ? 'search' : `${g.searchesPerGameMedian} searches`} instead of every ${botMovesPerGame}, which overstates the spawn cost per search about ${round(botMovesPerGame / Math.max(1, g.searchesPerGameMedian))}×; the threads alive at once (one per running game) do not depend on game length.`;
}

/** Lower is better for each; a difference counts when it is over both 10 % and the floor. */
const MEASURES: { name: string; unit: string; floor: number; get: (s: StrategyResult) => number | null }[] = [
  { name: 'loop delay p99', unit: ' ms', floor: 1, get: (s) => s.eventLoopDelayMs.p99 },
  { name: 'loop delay max', unit: ' ms', floor: 2, get: (s) => s.eventLoopDelayMs.max },
  { name: 'HTTP p99', unit: ' ms', floor: 2, get: (s) => s.http?.latencyMs.p99 ?? null },
  { name: 'bot p99', unit: ' ms', floor: 20, get: (s) => s.totalMs.p99 },
  { name: 'spawns during the run', unit: '', floor: 0.5, get: (s) => s.spawnsDuringRun },
  { name: 'spawn CPU during the run', unit: ' ms', floor: 10, get: (s) => s.spawnCpuDuringMs },
];

/** One peer against the fixed warm pool, measure by measure, from the numbers only. */
function compareWithFixed(peer: StrategyResult, fixed: StrategyResult): string {
  const worse: string[] = [];
  const better: string[] = [];
  const level: string[] = [];
  for (const m of MEASURES) {
    const v = m.get(peer);
    const f = m.get(fixed);
    if (v === null || f === null) continue;
    const ratio = f > 0 && v > 0 ? ` (${fmt(v / f, v / f >= 10 ? 0 : 1)}×)` : '';
    const text = `${m.name} ${fmt(v)}${m.unit} against ${fmt(f)}${m.unit}${ratio}`;
    if (v - f > m.floor && v > 1.1 * f) worse.push(text);
    else if (f - v > m.floor && f > 1.1 * v) better.push(text);
    else level.push(m.name);
  }
  const parts = [worse.length ? `worse on ${worse.join('; ')}` : 'worse on none of these'];
  if (better.length) parts.push(`better on ${better.join('; ')}`);
  if (level.length) parts.push(`level (within 10 %) on ${level.join(', ')}`);
  return `**${peer.label}** against the fixed warm pool: ${parts.join('; ')}.`;
}

/** The fixed warm pool next to what a user would otherwise pick, in one table, and what the
 * numbers say: every sentence is computed from this run's results. */
function whyFixedMarkdown(r: StudyReport): string {
  const fixed = r.results.find((s) => s.id === 'fixed');
  const peers = r.results.filter((s) => s.config.kind === 'main' || s.config.kind === 'per-game');
  if (!fixed || peers.length === 0) return '';
  const cores = r.machine.cpus;
  const rows = [fixed, ...peers].map((s) => [
    s.label,
    `${s.eventLoopDelayMs.p99} / ${s.eventLoopDelayMs.max}`,
    s.http ? s.http.latencyMs.p99 : '–',
    `${s.totalMs.p50} / ${s.totalMs.p99}`,
    s.spawnsDuringRun,
    `${fmt(s.spawnCpuDuringMs, 0)} (${fmt(s.spawnToComputeDuring * 100, 0)} % of compute)`,
    s.peakThreads,
    `${s.runSlowdown}×`,
  ]);
  const facts: string[] = [];
  const main = peers.find((s) => s.config.kind === 'main');
  if (main)
    facts.push(`On the main thread the longest search ran ${main.runMs.max} ms and the loop stalled up to ${main.eventLoopDelayMs.max} ms: while a search runs, every request of every game waits.`);
  const perGame = peers.find((s) => s.config.kind === 'per-game');
  if (perGame)
    facts.push(
      `One Worker per game spawned ${perGame.spawnsDuringRun} ${perGame.spawnsDuringRun === 1 ? 'thread' : 'threads'} during the run (${fmt(perGame.spawnCpuDuringMs, 0)} ms of spawn CPU, ${fmt(perGame.spawnToComputeDuring * 100, 0)} % of its compute), ran up to ${perGame.peakThreads} threads at once on ${cores} cores, and its searches ran a median ${perGame.runSlowdown}× their warm time (the fixed pool: ${fixed.runSlowdown}×).`,
    );
  const clean = r.results.filter((s) => s.failed === 0 && s.spawnsDuringRun === 0 && s.eventLoopDelayMs.max <= LOOP_MAX_TARGET_MS);
  const labels = (list: StrategyResult[]) => list.map((s) => s.label).join(', ');
  let verdict = `Of the ${r.results.length} ways measured, ${clean.length ? `${labels(clean)} ${clean.length === 1 ? 'keeps' : 'keep'}` : 'none keeps'} the event loop's max delay within ${LOOP_MAX_TARGET_MS} ms with no thread spawned during traffic`;
  const peersClean = peers.filter((s) => clean.includes(s));
  verdict += peersClean.length === 0 ? '; neither peer design does.' : `; of the peer designs, ${labels(peersClean)} ${peersClean.length === 1 ? 'does' : 'do'}.`;
  if (clean.includes(fixed) && clean.length > 1) {
    const best = clean.reduce((a, b) => (b.totalMs.p99 < a.totalMs.p99 ? b : a));
    verdict +=
      best === fixed
        ? ` Among those, the fixed warm pool also has the lowest bot p99 (${fixed.totalMs.p99} ms).`
        : ` Among those, ${best.label} has the lower bot p99 (${best.totalMs.p99} ms against the fixed pool's ${fixed.totalMs.p99} ms), with ${best.peakThreads} threads against ${fixed.peakThreads} and ${fmt(best.processCpuCores, 2)} cores of process CPU against ${fmt(fixed.processCpuCores, 2)}.`;
  } else if (!clean.includes(fixed)) {
    verdict += ` The fixed warm pool misses it in this run (loop max ${fixed.eventLoopDelayMs.max} ms, ${fixed.spawnsDuringRun} spawns): check the machine line above for load from other work.`;
  }
  return `**Why a fixed warm pool: the peers' way, side by side.** The same searches, the same HTTP load:

${table(['way', 'loop delay p99 / max ms', 'HTTP p99 ms', 'bot p50 / p99 ms', 'spawns during run', 'spawn CPU ms during', 'threads', 'cold ×'], rows)}

${peers.map((p) => compareWithFixed(p, fixed)).join(' ')} ${facts.join(' ')} ${verdict}
`;
}

// Run directly: node dist/bench/pool-study/run.js [tiny|quick|full] [--only=fixed,main,per-game]
// (writes docs/ under the current directory).
if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = (process.argv[2] ?? 'quick') as keyof typeof STUDY_MODES;
  const onlyArg = process.argv.find((a) => a.startsWith('--only='));
  const { writeReport } = await import('../report.ts');
  const { report, markdown } = await runPoolStudy({ ...STUDY_MODES[mode], ...(onlyArg ? { only: onlyArg.slice('--only='.length).split(',') } : {}) });
  writeReport('pool-study', STUDY_TITLE, markdown, report);
}
