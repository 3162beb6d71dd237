// A table's bot turns: the search for the bot (or the stand-in) to move, its move queued behind
// the room's writes, and the retry when the write or anything else fails. The room asks for a
// turn after each change (`start`) and shows `pending` as its view's `botThinking`.

import type { Logger } from 'pino';
import type { BotLevel } from '../../bot-engine/bots/index.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { BotAnswer } from './bot-scheduler.ts';
import type { LastMove } from '../wire/game.ts';
import type { GameSetup } from './store.ts';
import { type Applied, appliedOf, applyMove, botSeed, type MoveError } from './table.ts';
import type { WriteQueue } from './write-queue.ts';

export interface BotMover {
  /** The bot's move on `state`, which it must not change (the room's own, never mutated). */
  move(state: GameState, level: BotLevel, seed: number, log: Logger): Promise<BotAnswer>;
}

/** A bot to move now: its seat and level, on the room's state at `turn`. */
export interface BotTurn {
  seat: number;
  level: BotLevel;
  turn: number;
  state: GameState;
}

/** What a bot turn needs of its room. */
export interface BotTable {
  /** The bot to move now, or null (a person's turn, a game not being played). */
  botTurn(): BotTurn | null;
  /** The state now, read by the search until `release` (never mutated meanwhile). */
  lend(): { state: GameState; release: () => void };
  /** Stores the move, then makes it the game's (and sends its frame). */
  apply(applied: Applied | MoveError): Promise<LastMove | MoveError>;
  broadcast(): void;
  /** Tells everyone connected that something the server does on its own failed. */
  fault(message: string): void;
}

/** A bot move whose write failed is tried again after this long (the disk may have room again). */
const STORE_RETRY_MS = 2000;
/** A bot turn that failed otherwise is tried again after STORE_RETRY_MS, doubling up to this. */
const BOT_RETRY_MAX_MS = 60_000;

export class BotTurns {
  private readonly setup: GameSetup;
  private readonly mover: BotMover;
  private readonly table: BotTable;
  private readonly writes: WriteQueue;
  private readonly log: Logger;
  private thinking = false;
  /** False until the pool is warm after a restart: restored games wait for real searches. */
  private enabled: boolean;
  /** Set on shutdown: a search in flight may finish and be stored, no new one starts. */
  private draining = false;
  private closed = false;
  /** The turn's retry after a failure (a write or otherwise); no bot turn starts meanwhile. */
  private retry: NodeJS.Timeout | null = null;
  /** Turns failed in a row for a cause other than a full disk: sets the backoff. */
  private failures = 0;

  constructor(setup: GameSetup, mover: BotMover, table: BotTable, writes: WriteQueue, log: Logger, enabled: boolean) {
    this.setup = setup;
    this.mover = mover;
    this.table = table;
    this.writes = writes;
    this.log = log;
    this.enabled = enabled;
  }

  /** A search is in flight. */
  get pending(): boolean {
    return this.thinking;
  }

  /** Lets a restored game's bots move (the pool is warm). */
  resume(): void {
    this.enabled = true;
    if (this.start()) this.table.broadcast();
  }

  /** Starts the bot's search if a bot is to move; true if it did (the caller broadcasts). */
  start(): boolean {
    if (this.closed || this.draining || !this.enabled || this.thinking || this.retry) return false;
    const bot = this.table.botTurn();
    if (!bot) return false;
    this.thinking = true;
    const { seat, turn } = bot;
    // The bot sees what a player may know (the bag's contents, not its order): the search hides
    // the order on its own copy.
    const { state: from, release } = this.table.lend();
    this.mover
      .move(from, bot.level, botSeed(this.setup, turn, seat), this.log)
      .finally(() => {
        release();
        this.thinking = false;
      })
      .then((answer) => this.writes.run(() => this.play(seat, turn, from, answer)))
      .catch((e: unknown) => this.failed(e));
    return true;
  }

  /** Lets a search in flight finish (its move is stored) but starts no new one. */
  drain(): void {
    this.draining = true;
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private async play(seat: number, turn: number, from: GameState, answer: BotAnswer): Promise<void> {
    const now = this.table.botTurn();
    // The person may have taken the seat back (and moved) while the bot thought.
    if (this.closed || now?.turn !== turn) {
      this.start();
      this.table.broadcast();
      return;
    }
    // The bot's move was checked by playing it on its own copy of `from`: used as it is.
    const applied =
      answer.played && from === now.state
        ? appliedOf(this.setup, from, answer.played.next, answer.played.outcome, turn, seat, answer)
        : applyMove(this.setup, now.state, turn, seat, answer.move, answer);
    const result = await this.table.apply(applied);
    if (!('error' in result)) {
      if (this.failures > 0) this.log.info({ failures: this.failures }, 'bot move stored after failures: the game goes on');
      this.failures = 0;
      return;
    }
    if (this.closed) return;
    if (result.error !== 'storage_unavailable') throw new Error(`bot move rejected: ${result.message}`);
    // The bot does not advance until its move is stored; the same move is tried again.
    this.retryAfter(STORE_RETRY_MS, () => this.writes.run(() => this.play(seat, turn, from, answer)));
    this.table.broadcast();
  }

  /** The one boundary of a bot turn (its search, its write, its retry): a failure that is not
   * the disk's is logged once per streak with the game id, the players are told, and the turn is
   * tried again with backoff. Never a silent stall, never an unhandled rejection. */
  private failed(e: unknown): void {
    if (this.closed) return;
    this.failures++;
    const delayMs = Math.min(BOT_RETRY_MAX_MS, STORE_RETRY_MS * 2 ** (this.failures - 1));
    if (this.failures === 1) this.log.error({ err: e, retryInMs: delayMs }, 'bot turn failed: tried again with backoff');
    else this.log.debug({ failures: this.failures, retryInMs: delayMs }, 'bot turn failed again');
    this.table.fault(`the server could not complete the bot's move; it tries again in ${Math.round(delayMs / 1000)} s`);
    this.retryAfter(delayMs, async () => {
      if (this.start()) this.table.broadcast();
    });
    this.table.broadcast();
  }

  private retryAfter(delayMs: number, retry: () => Promise<void>): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = null;
      retry().catch((e: unknown) => this.failed(e));
    }, delayMs);
    this.retry.unref();
  }
}
