// A hint is work a person asked for, not a bot's turn: it runs on the pool's hint class (below
// every bot move, never counted toward readiness or overload) and never on the main thread, and
// never through the bot scheduler's degrade-and-fall-back path. A busy pool answers HintBusyError.

import type { Logger } from 'pino';
import type { BotLevel } from '../bot-engine/bots/index.ts';
import { type Move, resolveMove } from '../bot-engine/game.ts';
import type { GameState } from '../bot-engine/state.ts';
import { CodedError } from './errors.ts';
import type { Metrics } from './metrics.ts';
import { type BotPool, PoolBusyError } from './pool/pool.ts';

/** A hint is the strongest bot's move. */
export const HINT_LEVEL: BotLevel = 'expert';

/** No worker was free for the hint in time: retryable, nothing counted. */
export class HintBusyError extends CodedError {
  override name = 'HintBusyError';
  constructor(message: string) {
    super('hint_busy', message);
  }
}

export interface HintSearcher {
  /** The hint on `view`, left untouched (the search sees the bag's contents, not its order);
   * rejects with HintBusyError when the pool is busy. */
  search(view: GameState, seed: number, log: Logger): Promise<Move>;
  /** A repeat answered from the seat's search for that turn (counted in /metrics). */
  shared(): void;
}

export interface HintOptions {
  pool: BotPool;
  metrics: Metrics;
  /** Cap on one search once it runs. */
  budgetMs: number;
  /** Cap on the wait for a worker no bot move needs. */
  maxWaitMs: number;
}

export class PoolHints implements HintSearcher {
  private readonly options: HintOptions;

  constructor(options: HintOptions) {
    this.options = options;
  }

  async search(view: GameState, seed: number): Promise<Move> {
    const { pool, metrics, budgetMs, maxWaitMs } = this.options;
    metrics.hints.inc({ answer: 'search' });
    try {
      // The pool copies the bytes for each run of the search.
      const result = await pool.hint({ state: view.buffer, level: HINT_LEVEL, seed }, budgetMs, maxWaitMs);
      const check = resolveMove(view, result.move);
      if ('error' in check) throw new Error(`the worker answered an illegal hint: ${check.error}`);
      return result.move;
    } catch (e) {
      if (!(e instanceof PoolBusyError)) throw e;
      metrics.hints.inc({ answer: 'busy' });
      throw new HintBusyError(e.message);
    }
  }

  shared(): void {
    this.options.metrics.hints.inc({ answer: 'shared' });
  }
}
