// Games under load: N simulated people each playing whole games against bots over the real
// WebSocket protocol, with think times, against the real server; in the middle of the run a
// concurrent autocannon load (max rate, from a child process) measures HTTP under game load,
// compared with the same load on the idle server first.
//
//   node dist/bench/games/run.js [quick|full|tiny]

import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCannonChild, type CannonResult } from '../lib/cannon.ts';
import { machine, machineLine, type MachineInfo } from '../lib/proc.ts';
import { type ServerLogSummary, startServer } from '../../support/server.ts';
import { fmt, progress, round, sleep, type Summary } from '../lib/stats.ts';
import { lines, scatterPanels } from '../../client/src/charts.ts';
import { loopDelay, runLoad, windowStats, type LoadResult } from './load.ts';

export interface GamesOptions {
  people: number;
  level: BotLevel;
  thinkMs: [number, number];
  rampSeconds: number;
  /** Games-only steady window after the ramp, seconds. */
  steadySeconds: number;
  /** Concurrent autocannon window after the steady one, seconds. */
  httpSeconds: number;
  httpConnections: number;
  /** No new games after this many seconds (≥ ramp + steady + http). */
  seconds: number;
  graceSeconds: number;
  plotDir: string | null;
}

export const GAMES_MODES: Record<'tiny' | 'quick' | 'full', GamesOptions> = {
  tiny: { people: 4, level: 'greedy', thinkMs: [110, 160], rampSeconds: 1, steadySeconds: 1.5, httpSeconds: 1, httpConnections: 4, seconds: 3.5, graceSeconds: 1, plotDir: null },
  quick: { people: 40, level: 'greedy', thinkMs: [100, 300], rampSeconds: 3, steadySeconds: 8, httpSeconds: 5, httpConnections: 10, seconds: 18, graceSeconds: 5, plotDir: 'docs/bench' },
  full: { people: 200, level: 'hard', thinkMs: [1000, 3000], rampSeconds: 15, steadySeconds: 40, httpSeconds: 15, httpConnections: 10, seconds: 80, graceSeconds: 60, plotDir: 'docs/bench' },
};

export interface GamesReport {
  machine: MachineInfo;
  machineEnd: MachineInfo;
  options: GamesOptions;
  httpIdle: CannonResult | null;
  httpLoaded: CannonResult | null;
  httpRatio: number | null;
  steady: ReturnType<typeof windowStats>;
  loaded: ReturnType<typeof windowStats>;
  whole: ReturnType<typeof windowStats>;
  load: Omit<LoadResult, 'botSamples'>;
  serverExitCode: number | null;
  serverLog: ServerLogSummary;
  targets: { loopP99: boolean; loopMax: boolean; http80: boolean | null; spawnsAfterReady: number; peakGames: number; poolSaturated: boolean };
}

export async function runGames(o: GamesOptions): Promise<{ report: GamesReport; markdown: string }> {
  const m0 = machine();
  progress(`games: starting the server`);
  const server = await startServer();
  let code: number | null = null;
  let load: LoadResult;
  let httpIdle: CannonResult | null = null;
  let httpLoaded: Promise<CannonResult | null> | null = null;
  const httpFrom = (o.rampSeconds + o.steadySeconds) * 1000;
  try {
    const created = await fetch(`${server.url}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: [{ kind: 'person' }, { kind: 'bot', level: 'hard' }] }),
    });
    const target = `${server.url}/api/games/${((await created.json()) as { id: string }).id}`;
    progress(`games: HTTP on the idle server (GET /api/games/:id, ${o.httpConnections} connections, ${o.httpSeconds} s)`);
    httpIdle = await runCannonChild({ title: 'idle', url: target, connections: o.httpConnections, duration: o.httpSeconds }).catch(() => null);
    progress(`  idle: ${httpIdle?.requestsPerSec} req/s, p99 ${httpIdle?.latencyMs.p99} ms`);
    await sleep(o.plotDir ? 1000 : 200);
    progress(`games: ${o.people} people vs ${o.level} bots, think ${o.thinkMs[0]}–${o.thinkMs[1]} ms, ramp ${o.rampSeconds} s, new games for ${o.seconds} s`);
    load = await runLoad({
      url: server.url,
      pid: server.pid,
      people: o.people,
      level: o.level,
      thinkMs: o.thinkMs,
      rampMs: o.rampSeconds * 1000,
      seconds: o.seconds,
      graceMs: o.graceSeconds * 1000,
      seed: 11,
      onTick: (ms) => {
        if (!httpLoaded && ms >= httpFrom) {
          progress(`games: concurrent HTTP load for ${o.httpSeconds} s`);
          httpLoaded = runCannonChild({ title: 'loaded', url: target, connections: o.httpConnections, duration: o.httpSeconds }).catch(() => null);
        }
      },
    });
  } finally {
    code = await server.stop();
  }
  const loaded = await (httpLoaded as Promise<CannonResult | null> | null);
  const steady = windowStats(load, o.rampSeconds * 1000, httpFrom);
  const during = windowStats(load, httpFrom + 1000, httpFrom + o.httpSeconds * 1000);
  const whole = windowStats(load, o.rampSeconds * 1000, o.seconds * 1000);
  const peakGames = Math.max(0, ...load.windows.map((w) => w.games));
  const { botSamples, ...rest } = load;
  const report: GamesReport = {
    machine: m0,
    machineEnd: machine(),
    options: o,
    httpIdle,
    httpLoaded: loaded,
    httpRatio: httpIdle && loaded ? round(loaded.requestsPerSec / httpIdle.requestsPerSec, 2) : null,
    steady,
    loaded: during,
    whole,
    load: rest,
    serverExitCode: code,
    serverLog: server.logSummary(),
    targets: {
      loopP99: steady.loopP99Ms <= 5,
      loopMax: steady.loopMaxMs <= 20,
      http80: httpIdle && loaded ? loaded.requestsPerSec >= 0.8 * httpIdle.requestsPerSec : null,
      spawnsAfterReady: load.pool?.respawns ?? -1,
      peakGames,
      poolSaturated: load.windows.filter((w) => w.at >= o.rampSeconds * 1000 && w.at < httpFrom).some((w) => w.queueDepth > 0),
    },
  };
  if (o.plotDir) {
    mkdirSync(o.plotDir, { recursive: true });
    const pts = botSamples.map((s) => [s.at / 1000, s.elapsedMs] as [number, number]);
    writeFileSync(
      join(o.plotDir, 'games-bot-latency.svg'),
      scatterPanels({
        title: `Bot move time (queue + run) during the games run (${o.people} people, ${o.level})`,
        panels: [{ title: `HTTP load from ${httpFrom / 1000} to ${httpFrom / 1000 + o.httpSeconds} s`, series: [{ name: 'bot move', points: pts }] }],
        xLabel: 's into the run',
        yLabel: 'ms',
        columns: 1,
      }),
    );
    writeFileSync(
      join(o.plotDir, 'games-loop.svg'),
      lines({
        title: 'Server event loop and bot queue, ~1 s windows (from /api/pool)',
        xLabel: 's into the run',
        yLabel: 'ms / tasks / games÷10',
        target: { value: 5, label: 'p99 target 5 ms' },
        series: [
          { name: 'loop delay p99 ms', points: load.windows.map((w) => [w.at / 1000, w.loopP99Ms]) },
          { name: 'loop delay max ms', points: load.windows.map((w) => [w.at / 1000, w.loopMaxMs]) },
          { name: 'queue depth', points: load.windows.map((w) => [w.at / 1000, w.queueDepth]) },
          { name: 'games ÷ 10', points: load.windows.map((w) => [w.at / 1000, w.games / 10]) },
        ],
      }),
    );
  }
  return { report, markdown: gamesMarkdown(report) };
}

const s4 = (s: Summary) => `${s.p50} / ${s.p95} / ${s.p99} / ${s.max}`;

function gamesMarkdown(r: GamesReport): string {
  const o = r.options;
  const l = r.load;
  const pool = l.pool;
  const q = pool?.tasks;
  const ld = pool ? loopDelay(pool) : null;
  const errs = l.errors;
  const wsErr =
    Object.entries(errs.wsErrorFrames)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  const yes = (b: boolean | null) => (b === null ? 'not measured' : b ? 'met' : 'MISSED');
  const plots = o.plotDir ? `\n![bot move time](bench/games-bot-latency.svg)\n\n![event loop and queue](bench/games-loop.svg)\n` : '';
  return `Measured by \`bench/games/run.ts\`: ${o.people} simulated people, each creating a game against one \`${o.level}\` bot over HTTP, taking the seat and playing through the WebSocket protocol (random legal placement, think time ${o.thinkMs[0]}–${o.thinkMs[1]} ms), game after game; people start over ${o.rampSeconds} s, no new game after ${o.seconds} s, games still running ${o.graceSeconds} s later are abandoned. The server is the real one (\`dist/server/main.js\` as a child process, defaults: one bot worker on this ${r.machine.cpus}-core machine, queue bound 64, in-memory store). Windows: **steady** = ${o.rampSeconds}–${o.rampSeconds + o.steadySeconds} s (games only); **with HTTP** = the ${o.httpSeconds} s of concurrent autocannon (max rate, ${o.httpConnections} connections, \`GET /api/games/:id\`, from a child process). Event-loop delay comes from the server's own \`/api/pool\` (polled every ~1.05 s; \`eventLoop.lastSecond\`: how late a 10 ms timer fires, over the last second); "p99" below is the worst ~1 s window's p99. Bot move time is what the server's scheduler reports with each bot move (queue wait + search + overhead). Machine: ${machineLine(r.machine, r.machineEnd)}. The load generator (one process, ${o.people} sockets), autocannon and the server all share these ${r.machine.cpus} cores.

| | |
|---|---|
| games started / finished / abandoned | ${l.gamesStarted} / ${l.gamesFinished} / ${l.gamesAbandoned} (peak ${r.targets.peakGames} running; game length p50 ${l.gameSeconds.p50} s) |
| moves | ${l.personMoves} by people, ${l.botMoves} by bots (${Object.entries(l.botMoveSources)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}) |
| bot move p50 / p95 / p99 / max ms, steady | ${s4(r.steady.bot)} |
| bot move p50 / p95 / p99 / max ms, with HTTP | ${s4(r.loaded.bot)} |
| pool queue wait p50 / p90 / p99 / max ms (whole run, /api/pool) | ${q ? `${q.queueWaitMs.p50} / ${q.queueWaitMs.p90} / ${q.queueWaitMs.p99} / ${q.queueWaitMs.max}` : '–'} |
| pool run time p50 / p90 / p99 / max ms (whole run, /api/pool) | ${q ? `${q.runMs.p50} / ${q.runMs.p90} / ${q.runMs.p99} / ${q.runMs.max}` : '–'} |
| person move → acknowledged state, p50 / p99 ms | ${l.moveAckMs.p50} / ${l.moveAckMs.p99} |
| event-loop delay, steady: worst-window p99 (median-window p99) / max ms | ${r.steady.loopP99Ms} (${r.steady.loopP99Median}) / ${r.steady.loopMaxMs} |
| event-loop delay, with HTTP: worst-window p99 / max ms | ${r.loaded.loopP99Ms} / ${r.loaded.loopMaxMs} |
| HTTP idle: req/s, p99 ms | ${r.httpIdle ? `${r.httpIdle.requestsPerSec}, ${r.httpIdle.latencyMs.p99}` : '–'} |
| HTTP under game load: req/s, p99 ms | ${r.httpLoaded ? `${r.httpLoaded.requestsPerSec}, ${r.httpLoaded.latencyMs.p99} (${r.httpRatio}× idle)` : '–'} |
| server CPU mean / max (cores), RSS max / end MB | ${l.cpu ? `${l.cpu.coresMean} / ${l.cpu.coresMax}, ${l.cpu.rssMbMax} / ${l.cpu.rssMbEnd}` : '–'} |
| pool: workers, respawns after ready, spawn÷compute CPU | ${pool ? `${pool.size}, ${pool.respawns}, ${fmt(pool.spawnToComputeCpuRatio, 3)} (${Math.round(pool.spawnCpuMs)} / ${Math.round(pool.computeCpuMs)} ms)` : '–'} |
| server counters | ${pool ? JSON.stringify(pool.counters) : '–'} |
| errors | HTTP ${errs.http}, games refused (503) ${errs.createRefused}, WS error frames: ${wsErr}, sockets closed early ${errs.wsClosedEarly}, stalled games ${errs.stalled}; server logged ${r.serverLog.warn} warnings, ${r.serverLog.error} errors; exit code after SIGTERM ${r.serverExitCode} |
${plots}
**Targets** (fixed warm pool, steady window): 0 spawns after ready — ${r.targets.spawnsAfterReady === 0 ? 'met' : `MISSED (${r.targets.spawnsAfterReady})`}; event-loop p99 ≤ 5 ms — ${yes(r.targets.loopP99)} (${r.steady.loopP99Ms} ms); max ≤ 20 ms — ${yes(r.targets.loopMax)} (${r.steady.loopMaxMs} ms); pool saturated (queue non-empty) — ${r.targets.poolSaturated ? 'yes' : 'no'}; ${r.targets.peakGames} games running (target 200); HTTP throughput under load ≥ 80 % of idle — ${yes(r.targets.http80)} (${r.httpRatio ?? '–'}×).${ld ? '' : ''}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = (process.argv[2] ?? 'quick') as keyof typeof GAMES_MODES;
  const { writeReport } = await import('../report.ts');
  const { report, markdown } = await runGames(GAMES_MODES[mode]);
  writeReport('games', 'Games under load', markdown, report);
}
