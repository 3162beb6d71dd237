// Turns a bot's turn into a move, whatever the pool's state: a deadline on every search (queue
// wait included), a level chosen so the search fits it after the wait the pool predicts, one
// cheap retry, then a main-thread move chosen without search. No game ever waits on the pool
// without a bound.

import type { Logger } from 'pino';
import { type BotLevel, BOT_LEVELS, chooseMove } from '../../bot-engine/bots/index.ts';
import { type Move, type MoveOutcome, playMove, resolvedToMove } from '../../bot-engine/game.ts';
import type { GameState } from '../../bot-engine/state.ts';
import { bytesForWorker, copyOfState, keepBuffer, stateFromWorker } from './state-stock.ts';
import type { Metrics } from '../metrics.ts';
import { CauseBudgets } from '../log.ts';
import { type BotPool, PoolBusyError } from '../pool/pool.ts';
import { CROWDED_AT } from '../pool/load-policy.ts';

import type { MoveSource } from '../wire/game.ts';

export type { MoveSource };

export interface BotAnswer {
  move: Move;
  source: MoveSource;
  level: BotLevel;
  hitDeadline: boolean;
  elapsedMs: number;
  /** The move played on a private copy of the state asked about: the one check it gets, and the
   * next state for the room to take as it is. */
  played: { next: GameState; outcome: MoveOutcome };
}

export interface SchedulerOptions {
  pool: BotPool;
  metrics: Metrics;
  deadlineMs: number;
  logger: Logger;
}

/** The share of the deadline a search is planned to end by (predicted wait + expected run):
 * the rest absorbs prediction error. */
export const PLAN_FIT = 0.8;
/** The cheapest level a search is degraded to; below it the pool is not worth the wait. */
const CHEAP_LEVEL: BotLevel = 'heuristic';
const RETRY_LEVEL: BotLevel = 'random';
const RETRY_BUDGET_MS = 250;
/** How long a running search may go on past its deadline and cancel flag before it is
 * judged hung and its worker ended. */
const HUNG_MS = 1000;
/** Main-thread move without search. */
const FALLBACK_LEVEL: BotLevel = 'greedy';
/** How long the fallback may hold the event loop: greedy over every move late in a game takes up
 * to ~20 ms, so it plays the best of the moves it scored in this time. */
const FALLBACK_BUDGET_MS = 2;

class SearchFailed extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface BotPlan {
  /** null: no level would finish in time; the move is chosen on the main thread at once. */
  level: BotLevel | null;
  waitMs: number;
  /** Why the level is below the one asked: the predicted wait, or a crowded queue. */
  why: 'wait' | 'queue' | null;
}

/** The strongest level, from `level` down to CHEAP_LEVEL, whose search is expected to end within
 * PLAN_FIT of the deadline after waiting `waitMs` for a worker. A short wait keeps the level:
 * then only the search's own length meets the deadline, which stops it with its best move. A
 * queue past CROWDED_AT of its bound (`queueLoad`) gets CHEAP_LEVEL at most. */
export function planLevel(level: BotLevel, waitMs: number, deadlineMs: number, expectedMs: (l: BotLevel) => number, queueLoad = 0): BotPlan {
  const floor = Math.min(BOT_LEVELS.indexOf(level), BOT_LEVELS.indexOf(CHEAP_LEVEL));
  const plan = (l: BotLevel | null, why: BotPlan['why']): BotPlan =>
    l !== null && queueLoad >= CROWDED_AT && BOT_LEVELS.indexOf(l) > floor ? { level: BOT_LEVELS[floor], waitMs, why: 'queue' } : { level: l, waitMs, why: l === level ? null : why };
  if (waitMs <= (1 - PLAN_FIT) * deadlineMs) return plan(level, null);
  for (let i = BOT_LEVELS.indexOf(level); i >= floor; i--) {
    if (waitMs + expectedMs(BOT_LEVELS[i]) <= PLAN_FIT * deadlineMs) return plan(BOT_LEVELS[i], 'wait');
  }
  return plan(waitMs < deadlineMs ? BOT_LEVELS[floor] : null, 'wait');
}

type Found = Pick<BotAnswer, 'move' | 'hitDeadline' | 'played'>;

export class BotScheduler {
  private readonly pool: BotPool;
  private readonly metrics: Metrics;
  private readonly deadlineMs: number;
  private readonly log: Logger;
  private readonly shutdown = new AbortController();
  /** Overload's lines (a degraded level, a full queue, a missed deadline, a main-thread move): one per
   * cause per 10 s, saying how many were left out; /metrics counts every one. A line per bot move
   * would add a synchronous log write per move to an event loop that is already behind. */
  private readonly overloadLog = new CauseBudgets(1, 10_000);
  /** The last fallback move's turn of the event loop (ownLoopTurn). */
  private fallbackTurns: Promise<void> = Promise.resolve();

  constructor(options: SchedulerOptions) {
    this.pool = options.pool;
    this.metrics = options.metrics;
    this.deadlineMs = options.deadlineMs;
    this.log = options.logger;
  }

  /** The bot's move on `view`, which is never changed (the search sees the bag's contents, not
   * its order, whatever order `view` holds). Never rejects; resolves within about deadline +
   * 2 × grace (+ HUNG_MS if a running search will not stop) + the retry budget. */
  async move(view: GameState, level: BotLevel, seed: number, log: Logger = this.log): Promise<BotAnswer> {
    const started = performance.now();
    const plan = planLevel(level, this.pool.predictWaitMs(this.pool.runTimes.expectedMs(level)), this.deadlineMs, (l) => this.pool.runTimes.expectedMs(l), this.pool.load);
    const degraded = plan.level !== level;
    if (degraded) {
      this.metrics.degraded.inc({ step: plan.why === 'queue' ? 'queue' : plan.level ? 'level' : 'main-thread' });
      this.overloadLog.write(
        log,
        'info',
        { predictedWaitMs: Math.round(plan.waitMs), queueLoad: this.pool.load, botLevel: plan.level ?? FALLBACK_LEVEL },
        plan.why === 'queue' ? 'bot move degraded: the bot queue is crowded' : 'bot move degraded: the predicted wait leaves no time for the level asked',
      );
    }
    const answer = (r: Found, source: MoveSource, used: BotLevel): BotAnswer => {
      this.metrics.botMoves.inc({ source });
      return { move: r.move, source, level: used, hitDeadline: r.hitDeadline, elapsedMs: performance.now() - started, played: r.played };
    };
    if (plan.level) {
      try {
        const r = await this.attempt(view, plan.level, seed, this.deadlineMs);
        return answer(r, degraded ? 'degraded' : 'search', plan.level);
      } catch (e) {
        this.failed(e, log, 'first');
      }
      // A retry only helps when a worker is about to be free: else it would queue past its budget.
      if (this.pool.predictWaitMs(this.pool.runTimes.expectedMs(RETRY_LEVEL)) < RETRY_BUDGET_MS) {
        try {
          const r = await this.attempt(view, RETRY_LEVEL, seed, Math.min(RETRY_BUDGET_MS, this.deadlineMs));
          return answer(r, 'retry', RETRY_LEVEL);
        } catch (e) {
          this.failed(e, log, 'retry');
        }
      }
    }
    await this.ownLoopTurn();
    const until = performance.now() + FALLBACK_BUDGET_MS;
    const move = resolvedToMove(view, chooseMove(view, FALLBACK_LEVEL, seed, { shouldStop: () => performance.now() >= until }));
    this.overloadLog.write(log, 'warn', { botLevel: FALLBACK_LEVEL }, 'bot move chosen on the main thread: the pool could not answer in time');
    const next = copyOfState(view);
    const outcome = playMove(next, move);
    if ('error' in outcome) throw new Error(`the main-thread bot chose an illegal move: ${outcome.error}`);
    return answer({ move, hitDeadline: false, played: { next, outcome } }, 'fallback', FALLBACK_LEVEL);
  }

  /** Resolves in a turn of the event loop no other main-thread move has taken. A full queue
   * refuses many bot turns at once (a burst of moves arriving together); their fallback moves,
   * up to ~2 ms each, must not add up into one long stall of the loop. */
  private ownLoopTurn(): Promise<void> {
    const turn = this.fallbackTurns.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.fallbackTurns = turn;
    return turn;
  }

  /** Aborts every search in flight (shutdown). */
  close(): void {
    this.shutdown.abort();
  }

  private failed(e: unknown, log: Logger, attempt: string): void {
    const reason = e instanceof SearchFailed ? e.reason : 'error';
    this.metrics.searchFailures.inc({ reason });
    const fields = { attempt, reason, err: (e as Error).message };
    if (reason === 'busy' || reason === 'deadline') this.overloadLog.write(log, 'warn', fields, 'bot search failed', reason);
    else log.warn(fields, 'bot search failed');
  }

  private async attempt(view: GameState, level: BotLevel, seed: number, budgetMs: number): Promise<Found> {
    if (this.shutdown.signal.aborted) throw new SearchFailed('shutdown', 'the server is shutting down');
    // Int32 flags: [0] cancel (set here), [1] running (set by the worker when it picks the task up).
    const cancel = new SharedArrayBuffer(8);
    const flags = new Int32Array(cancel);
    const abort = new AbortController();
    const onShutdown = () => abort.abort();
    this.shutdown.signal.addEventListener('abort', onShutdown, { once: true });
    // Past the deadline: first ask the search to stop. A task still queued is then dropped (free);
    // a running one gets HUNG_MS more to stop on its own, because aborting a running task ends
    // its worker and piscina's replacement is a spawn on the hot path: only a hung search pays it.
    const grace = Math.min(250, Math.max(20, budgetMs / 4));
    const soft = setTimeout(() => Atomics.store(flags, 0, 1), budgetMs + grace);
    let timedOut = false;
    let hard: NodeJS.Timeout;
    const giveUp = (runningSeen: boolean) => {
      if (Atomics.load(flags, 1) === 1 && !runningSeen) {
        hard = setTimeout(() => giveUp(true), HUNG_MS);
        return;
      }
      timedOut = true;
      abort.abort();
    };
    hard = setTimeout(() => giveUp(false), budgetMs + 2 * grace);
    // The one copy of the state per search: moved to the worker, which hands it back untouched.
    const bytes = bytesForWorker(view);
    try {
      const result = await this.pool.search({ state: bytes, level, seed, deadline: Date.now() + budgetMs, cancel }, abort.signal);
      if (result.hitDeadline || result.cancelled) this.metrics.deadlineHits.inc();
      const next = result.state ? stateFromWorker(result.state) : copyOfState(view);
      const outcome = playMove(next, result.move);
      if ('error' in outcome) throw new SearchFailed('illegal', `the worker answered an illegal move: ${outcome.error}`);
      return { move: result.move, hitDeadline: result.hitDeadline || result.cancelled, played: { next, outcome } };
    } catch (e) {
      if (e instanceof SearchFailed) throw e;
      if (timedOut) {
        this.metrics.deadlineHits.inc();
        throw new SearchFailed('deadline', `no answer within ${budgetMs} ms + grace`);
      }
      if (this.shutdown.signal.aborted) throw new SearchFailed('shutdown', 'the server is shutting down');
      if (e instanceof PoolBusyError) throw new SearchFailed('busy', e.message);
      throw new SearchFailed('crash', (e as Error).message);
    } finally {
      keepBuffer(bytes);
      clearTimeout(soft);
      clearTimeout(hard);
      this.shutdown.signal.removeEventListener('abort', onShutdown);
    }
  }
}
