// The soak: many games created, played and abandoned against the real server (compiled, its own
// process, 127.0.0.1), with the server's memory, file descriptors, event loop and games in memory
// sampled throughout. Games expire within seconds here (TESSERA_EXPIRE_*), so months of a public
// server's traffic pass in minutes. Target: RSS and games in memory flat after warm-up (within
// 10 % between the first and last quarter), every game accounted for at the end.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lines } from '../../client/src/charts.ts';
import { GameSocket, http, HttpError, randomMove } from '../../support/game-client.ts';
import { machine, machineLine, type MachineInfo, sampleProc } from '../lib/proc.ts';
import { type ServerLogSummary, startServer } from '../../support/server.ts';
import { fmt, progress, round, sleep, table } from '../lib/stats.ts';
import { rng } from '../../support/random.ts';

export interface SoakOptions {
  /** Games to create. */
  games: number;
  /** Stop creating after this long even if fewer were created. */
  maxSeconds: number;
  /** Games in flight at once. */
  concurrency: number;
  expireSeconds: number;
  plotDir: string | null;
}

export const SOAK_MODES: Record<'tiny' | 'quick' | 'full', SoakOptions> = {
  tiny: { games: 120, maxSeconds: 20, concurrency: 6, expireSeconds: 1, plotDir: null },
  quick: { games: 5000, maxSeconds: 120, concurrency: 8, expireSeconds: 2, plotDir: 'docs/bench' },
  full: { games: 60_000, maxSeconds: 1200, concurrency: 8, expireSeconds: 2, plotDir: 'docs/bench' },
};

/** How each game goes: most are left waiting or left mid-game (they must expire), some are played out. */
type Kind = 'open_seat' | 'left' | 'played';
const kindOf = (i: number): Kind => (i % 20 === 0 ? 'played' : i % 20 <= 5 ? 'left' : 'open_seat');

interface Sample {
  seconds: number;
  created: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  fds: number;
  inMemory: number;
  active: number;
  loopP99Ms: number;
}

export interface SoakReport {
  machine: MachineInfo;
  machineEnd: MachineInfo;
  options: SoakOptions;
  created: Record<Kind, number>;
  seconds: number;
  samples: Sample[];
  quarters: { firstRssMb: number; lastRssMb: number; rssChange: number; firstInMemory: number; lastInMemory: number; inMemoryChange: number };
  end: { lost: number; notEnded: number; active: number; inMemory: number; movesPlayed: number };
  serverExitCode: number | null;
  serverLog: ServerLogSummary;
  flat: boolean;
}

function metric(text: string, name: string): number {
  const m = new RegExp(`^${name.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Plays seat 0 until `untilTurn` moves were made or the game is over; returns the last view. */
async function play(socket: GameSocket, untilTurn: number, random: () => number): Promise<any> {
  let view = (await socket.latestState(() => true, 30_000)).view;
  for (;;) {
    if (view.status === 'finished' || view.turn >= untilTurn) return view;
    if (view.currentSeat === 0 && view.legal) socket.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, random, 0.3) });
    const turn = view.turn;
    view = (await socket.latestState((f) => f.view.turn > turn, 30_000)).view;
  }
}

export async function runSoak(o: SoakOptions): Promise<{ report: SoakReport; markdown: string }> {
  const m0 = machine();
  progress(`soak: ${o.games} games, ${o.concurrency} at a time, expiry ${o.expireSeconds} s`);
  const expiry = String(o.expireSeconds);
  const server = await startServer({
    TESSERA_EXPIRE_OPEN_SEAT_SECONDS: expiry,
    TESSERA_EXPIRE_AWAY_SECONDS: expiry,
    TESSERA_EXPIRE_IDLE_SECONDS: '120',
    TESSERA_WS_RATE: '1000',
    TESSERA_WS_BURST: '1000',
  });
  const ws = `${server.url.replace('http', 'ws')}/ws`;
  const created: Record<Kind, number> = { open_seat: 0, left: 0, played: 0 };
  const games: { id: string; kind: Kind; turn: number }[] = [];
  const samples: Sample[] = [];
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let next = 0;
  let code: number | null = null;
  let sampling = true;

  const sample = async () => {
    const text = (await http(server.url, 'GET', '/metrics')).text;
    const proc = sampleProc(server.pid);
    samples.push({
      seconds: round(elapsed(), 1),
      created: next,
      rssMb: round(proc?.rssMb ?? 0, 1),
      heapUsedMb: round(metric(text, 'nodejs_heap_size_used_bytes') / 1048576, 1),
      heapTotalMb: round(metric(text, 'nodejs_heap_size_total_bytes') / 1048576, 1),
      fds: metric(text, 'process_open_fds'),
      inMemory: metric(text, 'tessera_games_in_memory'),
      active: metric(text, 'tessera_games_active'),
      loopP99Ms: round(metric(text, 'tessera_event_loop_delay_seconds{quantile="0.99"}') * 1000, 2),
    });
  };
  const sampler = (async () => {
    while (sampling) {
      await sample();
      await sleep(1000);
    }
  })();

  const one = async (i: number, random: () => number) => {
    const kind = kindOf(i);
    const seats = kind === 'open_seat' ? [{ kind: 'person' }, { kind: 'person' }] : [{ kind: 'person' }, { kind: 'bot', level: 'random' }];
    const made = await http(server.url, 'POST', '/api/games', { seats });
    if (made.status !== 201) throw new HttpError('create', made);
    const id = made.body.id as string;
    const seat = await http(server.url, 'POST', `/api/games/${id}/seats`, { name: `p${i}`, seat: 0 });
    if (seat.status !== 201) throw new HttpError('join', seat);
    created[kind]++;
    const game = { id, kind, turn: 0 };
    games.push(game);
    if (kind === 'open_seat') return;
    const socket = await GameSocket.join(ws, id, seat.body.token);
    try {
      game.turn = (await play(socket, kind === 'left' ? 1 + Math.floor(random() * 4) : Number.POSITIVE_INFINITY, random)).turn;
    } finally {
      socket.close();
    }
  };
  const worker = async (w: number) => {
    const random = rng(1000 + w);
    while (next < o.games && elapsed() < o.maxSeconds) {
      const i = next++;
      await one(i, random);
      if (i % 1000 === 999) progress(`soak: ${i + 1} games created (${round(elapsed(), 0)} s)`);
    }
  };

  let end: SoakReport['end'];
  let seconds = 0;
  try {
    await Promise.all(Array.from({ length: o.concurrency }, (_, w) => worker(w)));
    seconds = elapsed();
    // Everything left expires, and the sweep after that empties memory down to the cache.
    await sleep((o.expireSeconds + 3) * 1000);
    await sample();
    sampling = false;
    await sampler;
    let lost = 0;
    let notEnded = 0;
    for (const g of games) {
      const summary = await http(server.url, 'GET', `/api/games/${g.id}`);
      if (summary.status !== 200 || summary.body.turn < g.turn) lost++;
      else if (summary.body.status !== 'finished') notEnded++;
    }
    const last = samples.at(-1)!;
    end = { lost, notEnded, active: last.active, inMemory: last.inMemory, movesPlayed: games.reduce((n, g) => n + g.turn, 0) };
    progress(`soak: ${games.length} games in ${round(seconds, 0)} s; lost ${lost}, not ended ${notEnded}`);
  } finally {
    sampling = false;
    code = await server.stop();
  }

  // Warm-up: the first 10 % of the games; then the first and last quarters of the rest of the run
  // (the final sample, after everything expired, is not part of it).
  const steady = samples.slice(0, -1).filter((s) => s.created >= 0.1 * next);
  const quarter = Math.max(1, Math.floor(steady.length / 4));
  const first = steady.slice(0, quarter);
  const lastQ = steady.slice(-quarter);
  const change = (a: number, b: number) => (a > 0 ? round((b - a) / a, 3) : 0);
  const quarters = {
    firstRssMb: round(mean(first.map((s) => s.rssMb))),
    lastRssMb: round(mean(lastQ.map((s) => s.rssMb))),
    rssChange: 0,
    firstInMemory: round(mean(first.map((s) => s.inMemory))),
    lastInMemory: round(mean(lastQ.map((s) => s.inMemory))),
    inMemoryChange: 0,
  };
  quarters.rssChange = change(quarters.firstRssMb, quarters.lastRssMb);
  quarters.inMemoryChange = change(quarters.firstInMemory, quarters.lastInMemory);
  const flat = quarters.rssChange <= 0.1 && quarters.inMemoryChange <= 0.1 && end.lost === 0;
  const report: SoakReport = {
    machine: m0,
    machineEnd: machine(),
    options: o,
    created,
    seconds: round(seconds, 0),
    samples,
    quarters,
    end,
    serverExitCode: code,
    serverLog: server.logSummary(),
    flat,
  };

  if (o.plotDir) {
    mkdirSync(o.plotDir, { recursive: true });
    const series = (name: string, pick: (s: Sample) => number) => ({ name, points: samples.map((s) => [s.created, pick(s)] as [number, number]) });
    writeFileSync(
      join(o.plotDir, 'soak-memory.svg'),
      lines({
        title: `Server memory over ${next} games (created, played, abandoned)`,
        series: [series('RSS', (s) => s.rssMb), series('heap total', (s) => s.heapTotalMb), series('heap used', (s) => s.heapUsedMb)],
        xLabel: 'games created',
        yLabel: 'MiB',
      }),
    );
    writeFileSync(
      join(o.plotDir, 'soak-games.svg'),
      lines({
        title: 'Games held in memory and open file descriptors',
        series: [series('games in memory', (s) => s.inMemory), series('unfinished games', (s) => s.active), series('open fds', (s) => s.fds)],
        xLabel: 'games created',
        yLabel: 'count',
      }),
    );
  }
  const total = created.open_seat + created.left + created.played;
  const q = quarters;
  const markdown = `${machineLine(m0, report.machineEnd)}

\`bench/soak\` drives the compiled server (its own process, SQLite in a temporary data directory,
127.0.0.1) with ${o.concurrency} clients at a time: **${total} games** in ${report.seconds} s —
${created.open_seat} created with an open seat nobody takes, ${created.left} where the person
leaves after 1–4 moves, ${created.played} played to the end against a \`random\` bot
(${end.movesPlayed} moves in all). Games expire after ${o.expireSeconds} s here
(\`TESSERA_EXPIRE_*\`), so every abandoned game ends, is stored as abandoned and leaves memory
during the run. The server is sampled every second (RSS from /proc; heap, file descriptors,
event-loop p99 and games in memory from /metrics).

${table(
  ['', 'first quarter', 'last quarter', 'change', 'target'],
  [
    ['RSS (MiB)', fmt(q.firstRssMb), fmt(q.lastRssMb), `${fmt(q.rssChange * 100)} %`, '≤ 10 %'],
    ['games in memory', fmt(q.firstInMemory), fmt(q.lastInMemory), `${fmt(q.inMemoryChange * 100)} %`, '≤ 10 %'],
  ],
)}

Quarters are taken after a warm-up (the first 10 % of the games). At the end: **${end.lost} games lost**
(a game missing, or with fewer moves than its player saw acknowledged), ${end.notEnded} not ended,
${end.active} unfinished, ${end.inMemory} games in memory (the finished-game cache holds up to 100);
open file descriptors ${samples[0]?.fds ?? '–'} → ${samples.at(-1)?.fds ?? '–'}; after warm-up the event-loop p99
(over 5 s windows) stays ≤ ${fmt(Math.max(...steady.map((s) => s.loopP99Ms)))} ms with the server's 2 cores shared by the load clients. Server exit code ${code}; it logged ${report.serverLog.error} errors.
Result: ${flat ? '**flat**: memory and games in memory stay level, nothing lost' : '**not flat**: see the figures'}.
${o.plotDir ? '\n![soak memory](bench/soak-memory.svg)\n\n![soak games in memory](bench/soak-games.svg)\n' : ''}`;
  return { report, markdown };
}
