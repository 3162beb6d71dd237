// The server's main thread per move: the games load (people against bots over the WebSocket
// protocol, bench/games/load.ts) against the server built in a given checkout, run with
// --trace-gc. Over a measured window it reads the main thread's CPU only (/proc/<pid>/task/<pid>,
// not the worker threads), the moves played, the main isolate's full GCs, and the event loop's
// worst ~1 s p99 from /api/pool. Run it against two builds to compare them.
//
//   node bench/main-thread/run.ts <checkout with dist/server built> [--people=200] [--from=20] [--to=80]
//     [--protocol=2] [--node-args=--max-semi-space-size=8] [--nice]
// --nice runs the load generator (this process, after the server has started) at nice 19: a
// model of it on another machine, so the server's loop figures lose most of the CPU contention.
// --protocol=1 for a server that speaks only version 1 (whole views, no deltas); --node-args adds
// V8 flags (comma- or space-separated) after the shipped ones (SHIPPED_NODE_FLAGS), to choose them
// by measurement.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import { runLoad, windowStats } from '../games/load.ts';
import { machine, machineLine } from '../lib/proc.ts';
import { SHIPPED_NODE_FLAGS, startServer } from '../../support/server.ts';
import { progress, round } from '../lib/stats.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    people: { type: 'string', default: '200' },
    level: { type: 'string', default: 'hard' },
    from: { type: 'string', default: '20' },
    to: { type: 'string', default: '80' },
    protocol: { type: 'string' },
    'node-args': { type: 'string', default: '' },
    nice: { type: 'boolean', default: false },
  },
});
const root = resolve(positionals[0] ?? '.');
const people = Number(values.people);
const fromMs = Number(values.from) * 1000;
const toMs = Number(values.to) * 1000;

const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const statFields = (path: string): string[] => {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** CPU seconds of the main thread (its thread id is the process id): user (utime) and kernel
 * (stime: socket writes, SQLite's write() calls, epoll, waking the worker). */
const mainThreadCpuS = (pid: number): { user: number; kernel: number } => {
  const f = statFields(`/proc/${pid}/task/${pid}/stat`);
  return { user: Number(f[11]) / TICKS_PER_S, kernel: Number(f[12]) / TICKS_PER_S };
};

/** How long the process has run, ms: --trace-gc stamps count from (about) its start. */
const processAgeMs = (pid: number): number => {
  const startedS = Number(statFields(`/proc/${pid}/stat`)[19]) / TICKS_PER_S;
  return (Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) - startedS) * 1000;
};

/** Bot moves served so far by source (search, degraded, retry, fallback: the main thread's own). */
const botMovesServed = async (url: string): Promise<Record<string, number>> => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const bySource: Record<string, number> = {};
  for (const l of text.split('\n').filter((l) => l.startsWith('tessera_bot_moves_total'))) {
    const source = /source="([^"]+)"/.exec(l)?.[1] ?? 'all';
    bySource[source] = (bySource[source] ?? 0) + Number(l.split(' ').at(-1));
  }
  return bySource;
};
const total = (n: Record<string, number>) => Object.values(n).reduce((a, b) => a + b, 0);

interface Edge {
  atMs: number;
  ageMs: number;
  cpuS: { user: number; kernel: number };
  person: number;
  botSeen: number;
  botServed: Promise<Record<string, number>>;
}

progress(`main thread: ${people} people vs ${values.level} bots against ${root}, window ${fromMs / 1000}–${toMs / 1000} s`);
const m0 = machine();
const nodeArgs = values['node-args'].split(/[ ,]/).filter(Boolean);
const server = await startServer({}, { root, nodeArgs: ['--trace-gc', ...nodeArgs] });
// Every thread of this process (Linux nice is per thread); the server, started above, keeps its own.
if (values.nice) for (const tid of readdirSync('/proc/self/task')) setPriority(Number(tid), 19);
const edges: Edge[] = [];
const load = await (async () => {
  try {
    return await runLoad({
      url: server.url,
      pid: server.pid,
      people,
      level: values.level as BotLevel,
      thinkMs: [1000, 3000],
      rampMs: 15_000,
      seconds: toMs / 1000 + 1,
      graceMs: 1000,
      seed: 11,
      protocol: values.protocol === undefined ? undefined : Number(values.protocol),
      onTick: (ms, moves) => {
        if (edges.length < 2 && ms >= (edges.length === 0 ? fromMs : toMs)) {
          edges.push({ atMs: ms, ageMs: processAgeMs(server.pid), cpuS: mainThreadCpuS(server.pid), person: moves.person, botSeen: moves.bot, botServed: botMovesServed(server.url) });
        }
      },
    });
  } finally {
    await server.stop();
  }
})();
if (edges.length < 2) throw new Error('the run ended before the measured window did');
const [a, b] = edges;
const seconds = (b.atMs - a.atMs) / 1000;
const personMoves = b.person - a.person;
const [servedA, servedB] = [await a.botServed, await b.botServed];
const botMoves = total(servedB) - total(servedA);
const moves = personMoves + botMoves;
const cpu = { user: b.cpuS.user - a.cpuS.user, kernel: b.cpuS.kernel - a.cpuS.kernel };
const cpuS = cpu.user + cpu.kernel;

// --trace-gc prints every isolate's collections as "[pid:isolate] <ms since start> ms: <kind> ...";
// the main isolate is the first to collect (while the server loads, before any worker exists).
const gcs = server
  .log()
  .map((l) => /\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (Mark-Compact|Scavenge|Minor Mark-Sweep)[^,]*, (?:pooled: [\d.]+ MB, )?([\d.]+) \/.*\) ([^()]*)$/.exec(l))
  .filter((m) => m !== null)
  .map((m) => ({ isolate: m[1], atMs: Number(m[2]), kind: m[3], pauseMs: Number(m[4]), reason: m[5].trim() }));
const mainIsolate = gcs[0]?.isolate;
const full = gcs.filter((g) => g.isolate === mainIsolate && g.kind === 'Mark-Compact' && g.atMs >= a.ageMs && g.atMs < b.ageMs);
const loop = windowStats(load, a.atMs, b.atMs);
/** The main isolate's collections that paused ≥ 1 ms, stamped on the load's clock (as its windows are). */
const mainPauses = gcs.filter((g) => g.isolate === mainIsolate && g.pauseMs >= 1).map((g) => ({ ...g, atMs: g.atMs - (a.ageMs - a.atMs) }));

const result = {
  server: root,
  protocol: values.protocol ?? 'latest',
  nodeArgs: [...SHIPPED_NODE_FLAGS, ...nodeArgs],
  loadGeneratorNice: values.nice ? 19 : 0,
  machine: machineLine(m0, machine()),
  windowS: round(seconds, 1),
  movesPerS: round(moves / seconds, 1),
  personMoves,
  botMoves,
  /** The window's bot moves by source: `fallback` ones were chosen on the main thread (greedy). */
  botMovesBySource: Object.fromEntries(Object.keys(servedB).map((k) => [k, servedB[k] - (servedA[k] ?? 0)])),
  botMovesSeenByPeople: b.botSeen - a.botSeen,
  mainThreadCpuS: round(cpuS, 2),
  mainThreadCores: round(cpuS / seconds, 3),
  cpuUsPerMove: Math.round((cpuS * 1e6) / moves),
  /** The same split into user and kernel time (utime, stime). */
  cpuUsPerMoveUser: Math.round((cpu.user * 1e6) / moves),
  cpuUsPerMoveKernel: Math.round((cpu.kernel * 1e6) / moves),
  fullGcs: full.length,
  fullGcsPerS: round(full.length / seconds, 2),
  /** Why V8 started the main isolate's full GCs in the window (the end of its --trace-gc line). */
  fullGcReasons: full.reduce<Record<string, number>>((n, g) => {
    n[g.reason] = (n[g.reason] ?? 0) + 1;
    return n;
  }, {}),
  scavengesPerS: round(gcs.filter((g) => g.isolate === mainIsolate && g.kind !== 'Mark-Compact' && g.atMs >= a.ageMs && g.atMs < b.ageMs).length / seconds, 2),
  fullGcPauseMs: { mean: round(full.reduce((s, g) => s + g.pauseMs, 0) / Math.max(1, full.length), 2), max: Math.max(0, ...full.map((g) => g.pauseMs)) },
  /** Every isolate's full GCs over the whole run, the main one first (the rest are workers). */
  fullGcsByIsolate: Object.fromEntries([...new Set(gcs.map((g) => g.isolate))].map((i) => [i, gcs.filter((g) => g.isolate === i && g.kind === 'Mark-Compact').length])),
  loopWorstWindowP99Ms: loop.loopP99Ms,
  loopMedianWindowP99Ms: loop.loopP99Median,
  loopMaxMs: loop.loopMaxMs,
  loopWindows: loop.windows,
  /** The windows over 5 ms, each with the main isolate's collections that paused ≥ 1 ms in the
   * second before it was read (s from the load's start): a GC's pause, or something else. */
  slowWindows: load.windows
    .filter((w) => w.at >= a.atMs && w.at < b.atMs && w.loopP99Ms > 5)
    .map((w) => ({
      atS: round(w.at / 1000, 1),
      p99: w.loopP99Ms,
      max: w.loopMaxMs,
      gcs: mainPauses.filter((g) => g.atMs > w.at - 2000 && g.atMs <= w.at).map((g) => `${g.kind} ${g.pauseMs} ms`),
    })),
  gamesInWindow: ((g) => [Math.min(...g), Math.max(...g)])(load.windows.filter((w) => w.at >= a.atMs && w.at < b.atMs).map((w) => w.games)),
  errors: load.errors,
};
console.log(JSON.stringify(result, null, 2));
console.log(
  `| ${root} v${result.protocol} ${result.nodeArgs.join(' ')}${values.nice ? ' (load at nice 19)' : ''} | ${result.cpuUsPerMove} (user ${result.cpuUsPerMoveUser}, kernel ${result.cpuUsPerMoveKernel}) | ${result.fullGcsPerS} (pause mean ${result.fullGcPauseMs.mean}, max ${result.fullGcPauseMs.max} ms) | ${result.loopWorstWindowP99Ms} (median window ${result.loopMedianWindowP99Ms}) | ${result.movesPerS} |`,
);
