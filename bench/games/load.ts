// The WebSocket load generator: N simulated people, each creating a game over HTTP (by default
// against one bot; `table` sets other seats and rules), taking their seat, and playing it to the
// end through the real protocol (docs/PROTOCOL.md) with think times; then the next game, until
// the time is up. Also samples the server's own measurements (/api/pool) and its CPU and memory
// while the load runs. Loopback only.

import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import type { RulesRequest, SeatRequest } from '../../server/wire/api.ts';
import type { PoolReport } from '../../server/wire/pool.ts';
import type { ServerFrame } from '../../server/ws/protocol.ts';
import { GameSocket, HttpError, createGame, randomMove } from '../../support/game-client.ts';
import { coresUsed, sampleProc, type ProcSample } from '../lib/proc.ts';
import { progress, round, sleep, summarize, type Summary } from '../lib/stats.ts';
import { rng } from '../../support/random.ts';

/** The game each person creates: its seats (exactly one a person's: the seat they take) and rules. */
export interface LoadTable {
  seats: SeatRequest[];
  rules?: RulesRequest;
}

/** One person against one bot of `level`, the base game. */
export function oneBotTable(level: BotLevel): LoadTable {
  return { seats: [{ kind: 'person' }, { kind: 'bot', level }] };
}

/** Who the people play: one bot of `level` (`oneBotTable(level)`), or the seats and rules of `table`. */
export type LoadOptions = LoadCommon & ({ level: BotLevel; table?: undefined } | { table: LoadTable; level?: undefined });

interface LoadCommon {
  /** Server base URL (http://127.0.0.1:port). */
  url: string;
  /** Server process id, for CPU and memory (null: not sampled). */
  pid: number | null;
  people: number;
  /** Think time before each move, ms (uniform). */
  thinkMs: [number, number];
  /** People start spread over this many ms. */
  rampMs: number;
  /** No new game starts after this many ms (from the start). */
  seconds: number;
  /** Games still running this long after `seconds` are abandoned (closed), ms. */
  graceMs: number;
  seed: number;
  /** Called with the elapsed ms and the moves played so far every second (for phases such as a
   * concurrent HTTP load, or a measured window). */
  onTick?: (elapsedMs: number, moves: { person: number; bot: number }) => void;
  /** Read /api/pool only at these times (ms from the start): each read covers the time since
   * the previous one (the server resets its event-loop histogram when read). Default: every
   * ~1.05 s. */
  pollAtMs?: number[];
  /** Called with each /api/pool read and its time (ms from the start). */
  onPool?: (elapsedMs: number, report: PoolReport) => void;
  quiet?: boolean;
  /** The WebSocket protocol version the people speak (default: this checkout's). */
  protocol?: number;
}

export interface BotMoveSample {
  at: number;
  elapsedMs: number;
  source: string;
  /** The level the bot's seat asks for (the move may have been played at a cheaper one). */
  level: string;
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
  options: Omit<LoadCommon, 'onTick' | 'onPool'> & { level?: BotLevel; table?: LoadTable };
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
  pool: PoolReport | null;
  cpu: { coresMean: number; coresMax: number; rssMbMax: number; rssMbEnd: number } | null;
}

/** The server's own event-loop delay over about the last second (server/loop-monitor.ts: timer
 * lateness, nothing to subtract). */
export function loopDelay(p: PoolReport): { p99: number; max: number } {
  const w = p.eventLoop.lastSecond;
  return { p99: round(w.delayMs.p99, 2), max: round(w.delayMs.max, 2) };
}

export async function poolSummary(url: string): Promise<PoolReport | null> {
  try {
    const r = await fetch(`${url}/api/pool`, { signal: AbortSignal.timeout(5000) });
    return r.ok ? ((await r.json()) as PoolReport) : null;
  } catch {
    return null;
  }
}

/** A game with no frame for this long counts as stalled. */
const STALL_MS = 30_000;

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(o.url)) throw new Error(`load targets loopback only, not ${o.url}`);
  // Start the server's event-loop window afresh (it resets when read after ≥ 1 s).
  await poolSummary(o.url);
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const stopAt = o.seconds * 1000;
  const abandonAt = stopAt + o.graceMs;
  const random = rng(o.seed);
  const table = o.table === undefined ? oneBotTable(o.level) : o.table;
  const personSeat = table.seats.findIndex((s) => s.kind === 'person');
  if (personSeat < 0 || table.seats.filter((s) => s.kind === 'person').length > 1) throw new Error('a load table has exactly one person seat');
  const res: LoadResult = {
    options: {
      url: o.url,
      pid: o.pid,
      people: o.people,
      ...(o.table === undefined ? { level: o.level } : { table: o.table }),
      thinkMs: o.thinkMs,
      rampMs: o.rampMs,
      seconds: o.seconds,
      graceMs: o.graceMs,
      seed: o.seed,
      pollAtMs: o.pollAtMs,
    },
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
  const open = new Set<GameSocket>();

  const playOne = async (person: number): Promise<void> => {
    let game: { id: string; tokens: Map<number, string> };
    try {
      game = await createGame(o.url, table.seats, () => `load ${person}`, table.rules ? { rules: table.rules } : {});
    } catch (e) {
      if (e instanceof HttpError && e.status === 503) res.errors.createRefused++;
      else res.errors.http++;
      await sleep(1000);
      return;
    }
    res.gamesStarted++;
    const started = now();
    let socket: GameSocket;
    try {
      socket = await GameSocket.join(`${o.url.replace('http', 'ws')}/ws`, game.id, game.tokens.get(personSeat), o.protocol);
    } catch {
      res.errors.wsClosedEarly++;
      return;
    }
    open.add(socket);
    try {
      await playGame(socket, started);
    } finally {
      open.delete(socket);
      socket.close(1000, 'done');
    }
  };

  /** Answers every turn of ours after a think time, until the game ends, stalls or the time is up. */
  const playGame = async (socket: GameSocket, started: number): Promise<void> => {
    let seenBotTurn = -1;
    let movedTurn = -1;
    let sentAt = 0;
    let sentTurn = -1;
    for (;;) {
      let frame: ServerFrame;
      // Which limit this wait has decides what running out of it means (the socket's timer and
      // this clock are not the same clock: comparing with now() afterwards miscounted a game
      // still going at the abandon time as stalled, a fraction of a millisecond early).
      const toAbandon = abandonAt - now();
      try {
        frame = await socket.next(() => true, Math.max(1, Math.min(STALL_MS, toAbandon)));
      } catch {
        if (socket.closed) res.errors.wsClosedEarly++;
        else if (toAbandon <= STALL_MS) res.gamesAbandoned++;
        else res.errors.stalled++;
        return;
      }
      if (frame.type === 'error') {
        res.errors.wsErrorFrames[frame.code] = (res.errors.wsErrorFrames[frame.code] ?? 0) + 1;
        continue;
      }
      if (frame.type !== 'state') continue;
      const { view, last } = frame;
      if (last?.bot && last.turn > seenBotTurn && last.seat !== view.you) {
        seenBotTurn = last.turn;
        res.botMoves++;
        const level = view.seats[last.seat]?.level ?? last.bot.level;
        res.botSamples.push({ at: round(now()), elapsedMs: last.bot.elapsedMs, source: last.bot.source, level });
        res.botMoveSources[last.bot.source] = (res.botMoveSources[last.bot.source] ?? 0) + 1;
      }
      if (sentTurn >= 0 && view.turn > sentTurn) {
        acks.push(now() - sentAt);
        sentTurn = -1;
      }
      if (view.status === 'finished') {
        res.gamesFinished++;
        gameSecs.push((now() - started) / 1000);
        return;
      }
      if (view.currentSeat === view.you && view.legal && view.legal.length > 0 && movedTurn !== view.turn) {
        movedTurn = view.turn;
        await sleep(o.thinkMs[0] + random() * (o.thinkMs[1] - o.thinkMs[0]));
        sentAt = now();
        sentTurn = view.turn;
        res.personMoves++;
        socket.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, random, 0.4) });
      }
    }
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
        while (sampling && now() < next) await sleep(Math.max(0, Math.min(250, next - now())));
        if (!sampling) break;
      } else await sleep(1050);
      o.onTick?.(now(), { person: res.personMoves, bot: res.botMoves });
      const p = await poolSummary(o.url);
      if (o.pid !== null) {
        const s = sampleProc(o.pid);
        if (s) procs.push(s);
      }
      if (!p) continue;
      o.onPool?.(now(), p);
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
  for (const socket of open) socket.close(1000, 'bench over');
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
