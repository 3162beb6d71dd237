// Turn-based games at rest and in motion: `npm run bench:turn-based` (a few minutes; loopback only).
//
//   node --expose-gc bench/turn-based.ts [--games 10000] [--moving 500] [--rounds 2] [--yours 100]
//     [--out docs/results/turn-based.json] [--no-docs]
//
// The real app in this process (buildApp, SQLite in a file under a temporary directory), so that
// the main thread's own CPU can be read (process.threadCpuUsage: the kernel's per-thread count, in steps of ~4 ms, so per-move figures are totals over hundreds) and 10,000 stored games
// can be seeded through the store in seconds, not through 10,000 rate-limited creates. The
// loopback push service (test/support/push-service.ts) runs in a child process: its TLS and
// decryption are not the server's. Measured: RSS with 1,000 and with `--games` idle games stored,
// the deadline sweep at both sizes, "your games" (GET /api/me/games) for a player with `--yours`
// games, then `--moving` games played `--rounds` moves each: main-thread CPU per move and per
// notification, and notifications sent per second. Writes JSON and a section of docs/BENCHMARKS.md.

import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { newGame } from '../bot-engine/game.ts';
import type { RecordMove } from '../bot-engine/record.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { threadModule } from '../server/thread-priority.ts';
import { repoRoot } from '../support/paths.ts';
import { DUE_TURNS_PER_SWEEP } from '../server/games/deadlines.ts';
import type { GameSetup, SeatHolder } from '../server/games/store.ts';
import { randomRecordMoves } from '../test/server-helpers.ts';
import { machine, machineLine } from './lib/proc.ts';
import { progress, round, sleep, summarize, type Summary, table } from './lib/stats.ts';
import type { PushChildAnswer, PushChildRequest } from './turn-based/push-child.ts';

const repo = repoRoot;

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '10000' },
    moving: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '2' },
    yours: { type: 'string', default: '100' },
    out: { type: 'string', default: join(repo, 'docs/results/turn-based.json') },
    'no-docs': { type: 'boolean', default: false },
  },
});
const GAMES = Number(args.games);
const MOVING = Number(args.moving);
const ROUNDS = Number(args.rounds);
const YOURS = Number(args.yours);
/** The smaller of the two idle sizes memory is compared at. */
const FEWER = Math.min(1000, Math.ceil(GAMES / 10));
/** Distinct records the idle games reuse (a record replays only on its own seed). */
const RECORDS = 50;
const SWEEPS = 30;
const LISTINGS = 50;
const OWN = 'http://localhost:80';

// The push service's certificate is its own (loopback): the sender must accept it.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

const mainCpuMs = (): number => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const rssMb = (): number => round(process.memoryUsage().rss / 2 ** 20, 1);
const heapMb = (): number => round(process.memoryUsage().heapUsed / 2 ** 20, 1);

async function settledMemory(): Promise<{ rssMb: number; heapUsedMb: number }> {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await sleep(100);
  }
  return { rssMb: rssMb(), heapUsedMb: heapMb() };
}

/** The push service's child: subscriptions made there, arrival times read from there. */
class PushChild {
  private readonly child: ChildProcess;
  private answers: ((a: PushChildAnswer) => void)[] = [];

  private constructor(child: ChildProcess) {
    this.child = child;
    child.on('message', (a: PushChildAnswer) => this.answers.shift()?.(a));
  }

  static async start(): Promise<PushChild> {
    const child = fork(threadModule(import.meta.url, 'turn-based/push-child'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const push = new PushChild(child);
    await new Promise<PushChildAnswer>((r) => push.answers.push(r));
    return push;
  }

  private ask(request: PushChildRequest): Promise<PushChildAnswer> {
    return new Promise((r) => {
      this.answers.push(r);
      this.child.send(request);
    });
  }

  async subscribe(n: number) {
    const a = await this.ask({ subscribe: n });
    if (!('subscriptions' in a)) throw new Error('push child: no subscriptions');
    return a.subscriptions;
  }

  async arrivals(): Promise<number[]> {
    const a = await this.ask({ arrivals: true });
    if (!('arrivals' in a)) throw new Error('push child: no arrivals');
    return a.arrivals;
  }

  close(): void {
    this.child.send({ close: true } satisfies PushChildRequest);
  }
}

interface Player {
  id: string;
  name: string;
  cookie: string;
}

async function call(app: FastifyInstance, method: 'GET' | 'POST', url: string, cookie?: string, body?: unknown) {
  const headers: Record<string, string> = { origin: OWN };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
}

async function signIn(app: FastifyInstance, name: string): Promise<Player> {
  const res = await call(app, 'POST', '/api/session', undefined, { name });
  if (res.statusCode !== 201) throw new Error(`session for ${name}: ${res.statusCode} ${res.body}`);
  const value = res.cookies.find((c) => c.name === 'tessera_session')?.value;
  return { id: res.json().player.id, name, cookie: `tessera_session=${value}` };
}

const holder = (p: Player): SeatHolder => ({ name: p.name, tokenHash: randomBytes(32).toString('hex'), playerId: p.id });

function setupOf(id: string, seed: number, moveDays: 1 | 7, createdAt: number): GameSetup {
  return {
    id,
    createdAt: new Date(createdAt).toISOString(),
    seed: `s${seed}`,
    rules: { tinyCity: false, farmers: '3rd' },
    seats: [{ kind: 'person' }, { kind: 'person' }],
    clock: { turnSeconds: null, graceSeconds: 60 },
    standIn: 'heuristic',
    pace: { kind: 'turnBased', moveDays },
  };
}

/** What a sweep costs: the whole periodic sweep (rooms and deadlines) and the deadline sweep alone. */
async function sweepCost(app: FastifyInstance): Promise<{ sweep: Summary; deadlines: Summary; deadlinesCpu: Summary }> {
  const sweep: number[] = [];
  const deadlines: number[] = [];
  const deadlinesCpu: number[] = [];
  for (let i = 0; i < SWEEPS; i++) {
    let t = performance.now();
    await app.games.sweepNow();
    sweep.push(performance.now() - t);
    const cpu = mainCpuMs();
    t = performance.now();
    await app.games.sweepDeadlines();
    deadlines.push(performance.now() - t);
    deadlinesCpu.push(mainCpuMs() - cpu);
  }
  return { sweep: summarize(sweep, 2), deadlines: summarize(deadlines, 2), deadlinesCpu: summarize(deadlinesCpu, 2) };
}

/** Turns near their deadline among the stored games (one day a move, untouched for 20 hours):
 * the first sweep reminds a sweep's worth (each game read and replayed, its mark written, the
 * notifier told; these players have no devices), the next ones read the same due rows and skip them. */
async function dueSweeps(app: FastifyInstance, pool: Player[], now: number) {
  const count = Math.min(DUE_TURNS_PER_SWEEP, Math.ceil(GAMES / 50));
  for (let i = 0; i < count; i++) await app.store.create(setupOf(`due-${i}`, i % RECORDS, 1, now - 20 * 3_600_000), [holder(pool[i % pool.length]), holder(pool[(i + 3) % pool.length])]);
  const cpu = mainCpuMs();
  const t = performance.now();
  await app.games.sweepDeadlines();
  const first = { wallMs: round(performance.now() - t, 2), mainCpuMs: round(mainCpuMs() - cpu, 2) };
  const after = await sweepCost(app);
  progress(`${count} due turns: first sweep ${first.wallMs} ms (${first.mainCpuMs} ms main-thread CPU), then p50 ${after.deadlines.p50} ms`);
  return { count, first, after: { deadlines: after.deadlines, deadlinesCpu: after.deadlinesCpu } };
}

async function yourGamesCost(app: FastifyInstance, player: Player): Promise<{ wall: Summary; cpu: Summary; listed: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let listed = 0;
  for (let i = 0; i < LISTINGS; i++) {
    const c = mainCpuMs();
    const t = performance.now();
    const res = await call(app, 'GET', `/api/me/games?limit=${Math.min(100, YOURS)}`, player.cookie);
    wall.push(performance.now() - t);
    cpu.push(mainCpuMs() - c);
    if (res.statusCode !== 200) throw new Error(`your games: ${res.statusCode} ${res.body}`);
    listed = res.json().games.length;
  }
  return { wall: summarize(wall, 2), cpu: summarize(cpu, 2), listed };
}

async function main(): Promise<void> {
  const started = machine();
  const t0 = performance.now();
  if (!globalThis.gc) progress('run with --expose-gc (npm run bench:turn-based does) for settled memory figures');
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-turn-based-'));
  const push = await PushChild.start();
  const config = loadConfig({}, { port: 0, host: '127.0.0.1', logLevel: 'silent', dataDir, botWorkers: 1, warmupLevel: 'random', botDeadlineMs: 1000, createsPerMinute: 1_000_000 });
  const app = await buildApp(config);
  await app.ready();
  await app.poolStarted;
  try {
    const baseline = await settledMemory();
    progress(`app ready: RSS ${baseline.rssMb} MB`);

    // Players: one with YOURS games, a pool for the other idle seats, and two per moving game (with devices).
    const heavy = await signIn(app, 'Hundred Games');
    const pool = await Promise.all(Array.from({ length: 200 }, (_, i) => signIn(app, `Idle ${i}`)));
    const movers = await Promise.all(Array.from({ length: 2 * MOVING }, (_, i) => signIn(app, `Mover ${i}`)));
    const subscriptions = await push.subscribe(movers.length);
    for (const [i, p] of movers.entries()) {
      const res = await call(app, 'POST', '/api/me/devices', p.cookie, { subscription: { ...subscriptions[i], expirationTime: null }, label: 'bench' });
      if (res.statusCode !== 201) throw new Error(`device: ${res.statusCode} ${res.body}`);
    }
    progress(`${1 + pool.length + movers.length} players, ${movers.length} devices`);

    // Idle games: 7 days a move, last moved within the last day and a half (none near its deadline),
    // each with one of RECORDS records (0 to 60 moves).
    const records: RecordMove[][] = Array.from({ length: RECORDS }, (_, s) => randomRecordMoves(newGame({ players: 2, seed: `s${s}`, rules: { tinyCity: false, farmers: '3rd' } }), s, (s * 13) % 61));
    const now = Date.now();
    let seeded = 0;
    const seedTo = async (n: number) => {
      const t = performance.now();
      for (; seeded < n; seeded++) {
        const i = seeded;
        const s = i % RECORDS;
        const first = i < YOURS ? heavy : pool[i % pool.length];
        const second = pool[(i * 7 + 1) % pool.length] === first ? pool[(i + 1) % pool.length] : pool[(i * 7 + 1) % pool.length];
        const id = `idle-${i}`;
        await app.store.create(setupOf(id, s, 7, now - ((i * 7919) % 129_600_000)), [holder(first), holder(second)]);
        if (records[s].length) await app.store.appendMoves(id, records[s], null);
      }
      progress(`${n} idle games stored (${round((performance.now() - t) / 1000, 1)} s)`);
    };

    const atSize = async (n: number) => {
      await seedTo(n);
      await app.games.sweepNow();
      const yours = await yourGamesCost(app, heavy);
      const memory = await settledMemory();
      const sweeps = await sweepCost(app);
      const loaded = app.games.loaded('idle-0') ? 1 : 0;
      progress(`${n} idle: RSS ${memory.rssMb} MB, heap ${memory.heapUsedMb} MB; deadline sweep p50 ${sweeps.deadlines.p50} ms`);
      return { games: n, ...memory, idleRoomsInMemory: loaded, ...sweeps, yourGamesP50Ms: yours.wall.p50, yourGamesCpuP50Ms: yours.cpu.p50 };
    };
    const fewer = await atSize(FEWER);
    const more = await atSize(GAMES);
    const yours = await yourGamesCost(app, heavy);
    progress(`your games (${yours.listed} listed): p50 ${yours.wall.p50} ms, main-thread CPU p50 ${yours.cpu.p50} ms`);
    const due = await dueSweeps(app, pool, now);

    // Moving games: fresh, one day a move, each between two movers with devices.
    const rooms = [];
    for (let g = 0; g < MOVING; g++) {
      const id = `moving-${g}`;
      await app.store.create(setupOf(id, 1000 + g, 1, Date.now()), [holder(movers[2 * g]), holder(movers[2 * g + 1])]);
      const room = await app.games.room(id);
      if (!room) throw new Error(`${id} did not load`);
      rooms.push(room);
    }
    const loadedMemory = await settledMemory();
    progress(`${MOVING} moving games loaded: RSS ${loadedMemory.rssMb} MB`);
    await sleep(2500); // any notification of the first turns (none: stored, not played) flushed
    let expected = (await push.arrivals()).length;
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      const failed0 = app.push.counts.failed;
      const retried0 = app.push.counts.retried;
      const cpu0 = mainCpuMs();
      const start = performance.now();
      const sentFrom = Date.now();
      const moved = await Promise.all(
        rooms.map(async (room) => {
          const view = room.view(null);
          if (view.status !== 'playing' || view.currentSeat === null) return 0;
          const seat = view.currentSeat;
          const p = room.view(seat).legal?.[0];
          if (!p) return 0;
          const outcome = await room.play(seat, { x: p.x, y: p.y, rotation: p.rotation, meeple: null }, view.turn);
          if ('error' in outcome) throw new Error(`move refused: ${JSON.stringify(outcome)}`);
          return 1;
        }),
      );
      const moves = moved.reduce((a: number, b) => a + b, 0);
      const movesMs = performance.now() - start;
      const movesCpu = mainCpuMs() - cpu0;
      expected += moves;
      const cpu1 = mainCpuMs();
      // Until every move's notification arrived or was given up on (the sender's 10 s timeout).
      let arrivals = await push.arrivals();
      const until = Date.now() + 120_000;
      while (arrivals.length + app.push.counts.failed - failed0 < expected && Date.now() < until) {
        await sleep(100);
        arrivals = await push.arrivals();
      }
      const flushCpu = mainCpuMs() - cpu1;
      const failed = app.push.counts.failed - failed0;
      expected -= failed;
      const mine = arrivals.slice(expected - moves + failed).filter((t) => t >= sentFrom);
      const spanMs = mine.length > 1 ? (mine.at(-1) as number) - (mine[0] as number) : 0;
      const row = {
        moves,
        movesWallMs: round(movesMs, 1),
        mainCpuPerMoveMs: round(movesCpu / Math.max(1, moves), 3),
        notifications: mine.length,
        failed,
        retried: app.push.counts.retried - retried0,
        notificationsPerSecond: spanMs > 0 ? round((mine.length - 1) / (spanMs / 1000), 0) : null,
        endToEndPerSecond: mine.length ? round(mine.length / (((mine.at(-1) as number) - sentFrom) / 1000), 0) : null,
        mainCpuPerNotificationMs: round(flushCpu / Math.max(1, mine.length), 3),
        firstNotificationAfterMs: mine.length ? mine[0] - sentFrom : null,
      };
      rounds.push(row);
      progress(`round ${r + 1}: ${JSON.stringify(row)}`);
      if (arrivals.length < expected) throw new Error(`${expected - arrivals.length} notifications neither arrived nor failed within two minutes`);
    }
    const counts = { ...app.push.counts };
    const afterMoving = await settledMemory();
    // The moving games rest once nobody is connected and a person is to move: the sweep lets them go.
    await app.games.sweepNow();
    const rested = await settledMemory();
    const stillLoaded = rooms.filter((room) => app.games.loaded(room.id)).length;
    progress(`after moving: RSS ${afterMoving.rssMb} MB; rested: ${rested.rssMb} MB (${stillLoaded} moving games still in memory)`);

    const movesAll = rounds.reduce((a, r) => a + r.moves, 0);
    const result = {
      machine: started,
      finished: machine(),
      seconds: round((performance.now() - t0) / 1000, 0),
      options: { games: GAMES, moving: MOVING, rounds: ROUNDS, yours: YOURS, fewer: FEWER, sweeps: SWEEPS, listings: LISTINGS },
      baseline,
      idle: [fewer, more],
      yourGames: yours,
      due,
      moving: {
        loaded: loadedMemory,
        rounds,
        mainCpuPerMoveMs: round(rounds.reduce((a, r) => a + r.mainCpuPerMoveMs * r.moves, 0) / Math.max(1, movesAll), 3),
        pushCounts: counts,
        afterMoving,
        rested: { ...rested, stillLoaded },
      },
    };
    mkdirSync(dirname(resolve(args.out)), { recursive: true });
    writeFileSync(resolve(args.out), `${JSON.stringify(result, null, 2)}\n`);
    progress(`wrote ${args.out}`);
    if (!args['no-docs']) writeDocs(result);
  } finally {
    await app.close();
    push.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Result = {
  machine: ReturnType<typeof machine>;
  finished: ReturnType<typeof machine>;
  seconds: number;
  options: Record<string, number>;
  baseline: { rssMb: number; heapUsedMb: number };
  idle: (Awaited<ReturnType<typeof sweepCost>> & { games: number; rssMb: number; heapUsedMb: number; idleRoomsInMemory: number; yourGamesP50Ms: number; yourGamesCpuP50Ms: number })[];
  yourGames: Awaited<ReturnType<typeof yourGamesCost>>;
  due: Awaited<ReturnType<typeof dueSweeps>>;
  moving: {
    loaded: { rssMb: number };
    rounds: {
      moves: number;
      movesWallMs: number;
      mainCpuPerMoveMs: number;
      notifications: number;
      failed: number;
      retried: number;
      notificationsPerSecond: number | null;
      endToEndPerSecond: number | null;
      mainCpuPerNotificationMs: number;
      firstNotificationAfterMs: number | null;
    }[];
    mainCpuPerMoveMs: number;
    pushCounts: Record<string, number>;
    afterMoving: { rssMb: number };
    rested: { rssMb: number; stillLoaded: number };
  };
};

const START = '<!-- turn-based:start -->';
const END = '<!-- turn-based:end -->';

function writeDocs(r: Result): void {
  const [fewer, more] = r.idle;
  const section = [
    START,
    '## Turn-based games: 10,000 stored, 500 moving',
    '',
    '`npm run bench:turn-based` (bench/turn-based.ts; results in docs/results/turn-based.json). The real app in the bench',
    "process (SQLite in a file, WAL): the main thread's own CPU is read (`process.threadCpuUsage`: the kernel's count, in steps of ~4 ms: a single sub-ms call reads 0 or a step; per move and per notification are totals over a round), and the idle",
    'games are stored through the store (10,000 rate-limited creates would be most of the run). Idle games: two signed-in',
    'players, 7 days a move, 0–60 moves each, none near its deadline. The loopback push service runs in a child process',
    '(its TLS and decryption are not counted). Notifications are folded for 2 s per player (push/notifications.ts).',
    '',
    `Machine: ${machineLine(r.machine, r.finished)}. Run: ${r.seconds} s.`,
    '',
    table(
      [
        'idle games stored',
        'RSS (MB)',
        'heap used (MB)',
        'deadline sweep p50 / p95 (ms)',
        'its main-thread CPU p50 (ms)',
        'whole sweep p50 / p95 (ms)',
        'your games p50 (ms)',
        'its main-thread CPU p50 (ms)',
      ],
      [fewer, more].map((s) => [
        s.games.toLocaleString('en'),
        s.rssMb,
        s.heapUsedMb,
        `${s.deadlines.p50} / ${s.deadlines.p95}`,
        s.deadlinesCpu.p50,
        `${s.sweep.p50} / ${s.sweep.p95}`,
        s.yourGamesP50Ms,
        s.yourGamesCpuP50Ms,
      ]),
    ),
    '',
    `Memory does not grow with the idle games: ${(more.games - fewer.games).toLocaleString('en')} more stored games move RSS by ${round(more.rssMb - fewer.rssMb, 1)} MB`,
    `(heap ${round(more.heapUsedMb - fewer.heapUsedMb, 1)} MB): an idle game is a row, not a room (baseline RSS after start: ${r.baseline.rssMb} MB).`,
    '',
    `With ${r.due.count} turns near their deadline among them (a sweep's worth: ${DUE_TURNS_PER_SWEEP}), the first sweep reminds each`,
    `(the game read and replayed, its reminder mark written, the notifier told): ${r.due.first.wallMs} ms, ${r.due.first.mainCpuMs} ms of main-thread CPU;`,
    `later sweeps read the same due rows and skip them: p50 ${r.due.after.deadlines.p50} ms, p95 ${r.due.after.deadlines.p95} ms (main-thread CPU p50 ${r.due.after.deadlinesCpu.p50} ms).`,
    '',
    `"Your games" (GET /api/me/games?limit=100) for a player with ${r.options.yours} games, ${r.yourGames.listed} listed, ${r.options.listings} calls: p50 ${r.yourGames.wall.p50} ms,`,
    `p95 ${r.yourGames.wall.p95} ms; main-thread CPU p50 ${r.yourGames.cpu.p50} ms.`,
    '',
    table(
      [
        'round',
        'moves',
        'wall (ms)',
        'main-thread CPU per move (ms)',
        'notifications arrived',
        'failed',
        'sent again',
        'first after (ms)',
        'sent per second (first to last)',
        'per second (moves to last)',
        'main-thread CPU per notification (ms)',
      ],
      r.moving.rounds.map((x, i) => [
        i + 1,
        x.moves,
        x.movesWallMs,
        x.mainCpuPerMoveMs,
        x.notifications,
        x.failed,
        x.retried,
        x.firstNotificationAfterMs ?? '–',
        x.notificationsPerSecond ?? '–',
        x.endToEndPerSecond ?? '–',
        x.mainCpuPerNotificationMs,
      ]),
    ),
    '',
    `${r.moving.rounds.length} rounds, each a move in every moving game at once (room.play, as a move frame's handler`,
    `calls it): main-thread CPU per move ${r.moving.mainCpuPerMoveMs} ms on average. Each move tells the other player`,
    '(a Web Push message, encrypted and VAPID-signed, to the loopback service); "failed": pushes the sender counted failed; "sent again": pushes whose',
    'connection was closed before any answer (a kept-alive socket timed out as it was reused) and were sent once more; "sent per second"',
    "is the rate at which a round's notifications arrived, from the first to the last. RSS with the moving games loaded:",
    `${r.moving.loaded.rssMb} MB; after the moves: ${r.moving.afterMoving.rssMb} MB; after a sweep let them rest: ${r.moving.rested.rssMb} MB`,
    `(${r.moving.rested.stillLoaded} still in memory). Push counts: ${JSON.stringify(r.moving.pushCounts)}.`,
    END,
  ].join('\n');
  const path = join(repo, 'docs/BENCHMARKS.md');
  const docs = readFileSync(path, 'utf8');
  const at = docs.indexOf(START);
  const next = at < 0 ? `${docs.trimEnd()}\n\n${section}\n` : `${docs.slice(0, at)}${section}${docs.slice(docs.indexOf(END) + END.length)}`;
  writeFileSync(path, next);
  progress('docs/BENCHMARKS.md updated');
}

await main();
