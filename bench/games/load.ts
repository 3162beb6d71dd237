// The WebSocket load generator: N simulated people, each creating a game against a bot over
// HTTP, taking the seat, and playing it to the end through the real protocol (docs/PROTOCOL.md)
// with think times; then the next game, until the time is up. Also samples the server's own
// measurements (/api/pool) and its CPU and memory while the load runs. Loopback only.

import WebSocket from 'ws';
import { coresUsed, sampleProc, type ProcSample } from '../lib/proc.ts';
import { progress, rng, round, sleep, summarize, type Summary } from '../lib/stats.ts';

export interface LoadOptions {
  /** Server base URL (http://127.0.0.1:port). */
  url: string;
  /** Server process id, for CPU and memory (null: not sampled). */
  pid: number | null;
  people: number;
  level: string;
  /** Think time before each move, ms (uniform). */
  thinkMs: [number, number];
  /** People start spread over this many ms. */
  rampMs: number;
  /** No new game starts after this many ms (from the start). */
  seconds: number;
  /** Games still running this long after `seconds` are abandoned (closed), ms. */
  graceMs: number;
  seed: number;
  /** Called with the elapsed ms every second (for phases such as a concurrent HTTP load). */
  onTick?: (elapsedMs: number) => void;
  /** Read /api/pool only at these times (ms from the start): each read covers the time since
   * the previous one (the server resets its event-loop histogram when read). Default: every
   * ~1.05 s. */
  pollAtMs?: number[];
  quiet?: boolean;
}

interface BotMoveSample {
  at: number;
  elapsedMs: number;
  source: string;
}

export interface PoolWindow {
  at: number;
  loopP99Ms: number;
  loopMaxMs: number;
  utilization: number;
  queueDepth: number;
  inFlight: number;
  games: number;
  sockets: number;
}

export interface LoadResult {
  options: Omit<LoadOptions, 'onTick'>;
  gamesStarted: number;
  gamesFinished: number;
  gamesAbandoned: number;
  gameSeconds: Summary;
  botMoves: number;
  /** Bot move time as the server's scheduler reports it with each move (queue + run), ms. */
  botMoveMs: Summary;
  botMoveSources: Record<string, number>;
  /** A person's move → the state frame that contains it, ms. */
  moveAckMs: Summary;
  personMoves: number;
  errors: { http: number; createRefused: number; wsErrorFrames: Record<string, number>; wsClosedEarly: number; stalled: number };
  /** Per ~1 s window, from /api/pool (the server's own loop monitor). */
  windows: PoolWindow[];
  /** Samples of bot move latency with their time (for plots and windows). */
  botSamples: BotMoveSample[];
  pool: PoolSummary | null;
  cpu: { coresMean: number; coresMax: number; rssMbMax: number; rssMbEnd: number } | null;
}

/** The parts of /api/pool the benchmarks read. */
export interface PoolSummary {
  size: number;
  alive: number;
  respawns: number;
  tasks: { queueWaitMs: Record<string, number>; runMs: Record<string, number>; cpuMs: Record<string, number> } | null;
  spawnCpuMs: number;
  computeCpuMs: number;
  spawnToComputeCpuRatio: number | null;
  eventLoop: { delayMs: { p50: number; p99: number; max: number; mean: number }; utilization: number; resolutionMs?: number; lastSecond?: { delayMs: { p99: number; max: number } } };
  queue: { depth: number; bound: number; inFlight: number };
  utilization: number;
  counters: Record<string, unknown>;
  games: number;
  sockets: number;
}

/** The server's own event-loop delay over about the last second (server/loop-monitor.ts: timer
 * lateness, nothing to subtract). Older servers reported monitorEventLoopDelay values that
 * included its 10 ms resolution: subtract that when the summary says so. */
export function loopDelay(p: PoolSummary): { p99: number; max: number } {
  const w = p.eventLoop.lastSecond ?? p.eventLoop;
  const res = p.eventLoop.resolutionMs ?? 10;
  return { p99: round(Math.max(0, w.delayMs.p99 - res), 2), max: round(Math.max(0, w.delayMs.max - res), 2) };
}

export async function poolSummary(url: string): Promise<PoolSummary | null> {
  try {
    const r = await fetch(`${url}/api/pool`, { signal: AbortSignal.timeout(5000) });
    return r.ok ? ((await r.json()) as PoolSummary) : null;
  } catch {
    return null;
  }
}

interface Placement {
  x: number;
  y: number;
  rotation: number;
  meeples: string[];
}
interface View {
  status: string;
  turn: number;
  you: number | null;
  currentSeat: number | null;
  legal: Placement[] | null;
}
interface LastMove {
  turn: number;
  seat: number;
  bot?: { source: string; level: string; elapsedMs: number };
}

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  return { status: r.status, json: (await r.json().catch(() => ({}))) as Record<string, unknown> };
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(o.url)) throw new Error(`load targets loopback only, not ${o.url}`);
  // Start the server's event-loop window afresh (it resets when read after ≥ 1 s).
  await poolSummary(o.url);
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const stopAt = o.seconds * 1000;
  const abandonAt = stopAt + o.graceMs;
  const random = rng(o.seed);
  const res: LoadResult = {
    options: { url: o.url, pid: o.pid, people: o.people, level: o.level, thinkMs: o.thinkMs, rampMs: o.rampMs, seconds: o.seconds, graceMs: o.graceMs, seed: o.seed, pollAtMs: o.pollAtMs },
    gamesStarted: 0,
    gamesFinished: 0,
    gamesAbandoned: 0,
    gameSeconds: summarize([]),
    botMoves: 0,
    botMoveMs: summarize([]),
    botMoveSources: {},
    moveAckMs: summarize([]),
    personMoves: 0,
    errors: { http: 0, createRefused: 0, wsErrorFrames: {}, wsClosedEarly: 0, stalled: 0 },
    windows: [],
    botSamples: [],
    pool: null,
    cpu: null,
  };
  const gameSecs: number[] = [];
  const acks: number[] = [];
  const open = new Set<WebSocket>();

  const playOne = async (person: number): Promise<void> => {
    const created = await post(`${o.url}/api/games`, { seats: [{ kind: 'person' }, { kind: 'bot', level: o.level }] }).catch(() => ({ status: 0, json: {} as Record<string, unknown> }));
    if (created.status === 503) {
      res.errors.createRefused++;
      await sleep(1000);
      return;
    }
    if (created.status !== 201) {
      res.errors.http++;
      await sleep(1000);
      return;
    }
    const id = String(created.json.id);
    const seat = await post(`${o.url}/api/games/${id}/seats`, { name: `load ${person}` }).catch(() => ({ status: 0, json: {} as Record<string, unknown> }));
    if (seat.status !== 201) {
      res.errors.http++;
      await sleep(1000);
      return;
    }
    res.gamesStarted++;
    const started = now();
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(`${o.url.replace('http', 'ws')}/ws`, { perMessageDeflate: false });
      open.add(ws);
      let seenBotTurn = -1;
      let scheduledTurn = -1;
      let sentAt = 0;
      let sentTurn = -1;
      let finished = false;
      let lastProgress = now();
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearInterval(watchdog);
        clearTimeout(timer);
        open.delete(ws);
        resolve();
      };
      const watchdog = setInterval(() => {
        if (now() > abandonAt) {
          res.gamesAbandoned++;
          ws.close(1000, 'bench over');
        } else if (now() - lastProgress > 30_000) {
          res.errors.stalled++;
          ws.close(1000, 'stalled');
        }
      }, 500);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', v: 1, gameId: id, token: seat.json.token })));
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { type: string; view?: View; last?: LastMove | null; code?: string };
        if (frame.type === 'error') {
          res.errors.wsErrorFrames[frame.code ?? '?'] = (res.errors.wsErrorFrames[frame.code ?? '?'] ?? 0) + 1;
          return;
        }
        if (frame.type !== 'state' || !frame.view) return;
        lastProgress = now();
        const { view, last } = frame;
        if (last?.bot && last.turn > seenBotTurn && last.seat !== view.you) {
          seenBotTurn = last.turn;
          res.botMoves++;
          res.botSamples.push({ at: round(now()), elapsedMs: last.bot.elapsedMs, source: last.bot.source });
          res.botMoveSources[last.bot.source] = (res.botMoveSources[last.bot.source] ?? 0) + 1;
        }
        if (sentTurn >= 0 && view.turn > sentTurn) {
          acks.push(now() - sentAt);
          sentTurn = -1;
        }
        if (view.status === 'finished') {
          if (!finished) {
            finished = true;
            res.gamesFinished++;
            gameSecs.push((now() - started) / 1000);
          }
          ws.close(1000, 'game over');
          return;
        }
        if (view.currentSeat === view.you && view.legal && view.legal.length > 0 && scheduledTurn !== view.turn) {
          scheduledTurn = view.turn;
          const think = o.thinkMs[0] + random() * (o.thinkMs[1] - o.thinkMs[0]);
          const p = view.legal[Math.floor(random() * view.legal.length)];
          const meeple = p.meeples.length > 0 && random() < 0.4 ? p.meeples[Math.floor(random() * p.meeples.length)] : null;
          timer = setTimeout(() => {
            sentAt = now();
            sentTurn = view.turn;
            res.personMoves++;
            ws.send(JSON.stringify({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple } }));
          }, think);
        }
      });
      ws.on('close', () => {
        if (!finished && now() <= abandonAt) res.errors.wsClosedEarly++;
        done();
      });
      ws.on('error', () => {
        // 'close' follows
      });
    });
  };

  // Samplers: the server's pool summary and process stats, about once a second.
  let sampling = true;
  const procs: ProcSample[] = [];
  const sampler = (async () => {
    let lastLog = 0;
    const at = o.pollAtMs ? [...o.pollAtMs] : null;
    while (sampling) {
      if (at) {
        const next = at.shift();
        if (next === undefined) break;
        while (sampling && now() < next) await sleep(Math.min(250, next - now()));
        if (!sampling) break;
      } else await sleep(1050);
      o.onTick?.(now());
      const p = await poolSummary(o.url);
      if (o.pid !== null) {
        const s = sampleProc(o.pid);
        if (s) procs.push(s);
      }
      if (!p) continue;
      const d = loopDelay(p);
      res.windows.push({
        at: round(now()),
        loopP99Ms: d.p99,
        loopMaxMs: d.max,
        utilization: round(p.utilization, 3),
        queueDepth: p.queue.depth,
        inFlight: p.queue.inFlight,
        games: p.games,
        sockets: p.sockets,
      });
      if (!o.quiet && now() - lastLog > 5000) {
        lastLog = now();
        progress(`  ${Math.round(now() / 1000)} s: ${p.games} games, ${p.sockets} sockets, queue ${p.queue.depth}, ${res.gamesFinished} finished, ${res.botMoves} bot moves, loop p99 ${d.p99} ms`);
      }
    }
  })();

  const people = Array.from({ length: o.people }, async (_, i) => {
    await sleep((i * o.rampMs) / Math.max(1, o.people));
    while (now() < stopAt) await playOne(i);
  });
  await Promise.all(people);
  sampling = false;
  await sampler;
  for (const ws of open) ws.terminate();
  res.pool = await poolSummary(o.url);
  res.gameSeconds = summarize(gameSecs);
  res.botMoveMs = summarize(res.botSamples.map((s) => s.elapsedMs));
  res.moveAckMs = summarize(acks, 2);
  if (procs.length >= 2) {
    const cores = procs.slice(1).map((s, i) => coresUsed(procs[i], s));
    res.cpu = {
      coresMean: round(coresUsed(procs[0], procs.at(-1)!), 2),
      coresMax: round(Math.max(...cores), 2),
      rssMbMax: round(Math.max(...procs.map((s) => s.rssMb))),
      rssMbEnd: round(procs.at(-1)!.rssMb),
    };
  }
  return res;
}

/** Bot move latency and event-loop delay within a time window of a load run. */
export function windowStats(r: LoadResult, fromMs: number, toMs: number): { bot: Summary; loopP99Ms: number; loopP99Median: number; loopMaxMs: number; windows: number } {
  const bot = summarize(r.botSamples.filter((s) => s.at >= fromMs && s.at < toMs).map((s) => s.elapsedMs));
  const w = r.windows.filter((x) => x.at >= fromMs && x.at < toMs);
  const p99s = w.map((x) => x.loopP99Ms).sort((a, b) => a - b);
  return { bot, loopP99Ms: p99s.at(-1) ?? 0, loopP99Median: p99s[Math.floor(p99s.length / 2)] ?? 0, loopMaxMs: Math.max(0, ...w.map((x) => x.loopMaxMs)), windows: w.length };
}
