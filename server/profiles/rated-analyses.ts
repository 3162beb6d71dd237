// Rated games are analysed without anyone asking, so a player's profile can say what they lose per
// move. One automatic analysis at a time goes to AnalysisService (idle workers only: a bot move
// never waits for it), the rest wait in a bounded backlog; people's own requests are never
// refused for it (it holds one of TESSERA_MAX_ANALYSES). A failure is logged once by the service
// and not retried; after a restart, recent rated games without an analysis are queued again.

import type { Logger } from 'pino';
import type { GameRecord } from '../../bot-engine/record.ts';
import { AnalysisQueueFullError, type AnalysisService } from '../analysis/service.ts';
import type { GameSetup, GameStore } from '../games/store.ts';
import { getAnalysis, listFinished } from '../games/store-operations.ts';

/** Rated games waiting for their automatic analysis; past it the oldest waiting is dropped. */
export const BACKLOG = 1000;
/** After a restart, the latest finished games looked through for rated ones without an analysis. */
export const RECOVERY_SCAN = 500;

export interface RatedAnalysesOptions {
  analysis: Pick<AnalysisService, 'request' | 'on' | 'off'>;
  /** A finished game's record (GameService.finishedRecord). */
  record(gameId: string): Promise<GameRecord | 'not_finished' | undefined>;
  store: Pick<GameStore, 'list' | 'getDocument'>;
  log: Logger;
  backlog?: number;
}

export class RatedAnalyses {
  private readonly options: RatedAnalysesOptions;
  private readonly waiting: string[] = [];
  /** The automatic analysis handed to the service and not yet done or failed. */
  private running: string | null = null;
  /** The service's queue was full: try again when any analysis ends. */
  private blocked = false;
  private closed = false;
  private readonly onUpdate = (answer: { gameId: string; status: string }) => {
    if (answer.status !== 'done' && answer.status !== 'failed') return;
    if (answer.gameId === this.running) this.running = null;
    this.blocked = false;
    void this.pump();
  };

  constructor(options: RatedAnalysesOptions) {
    this.options = options;
    options.analysis.on('update', this.onUpdate);
  }

  /** A game's end is stored: a rated one is queued for analysis. */
  finished(setup: GameSetup): void {
    if (setup.rated) this.queue(setup.id);
  }

  queue(gameId: string): void {
    if (this.closed || gameId === this.running || this.waiting.includes(gameId)) return;
    const limit = this.options.backlog ?? BACKLOG;
    if (this.waiting.length >= limit) {
      const dropped = this.waiting.shift();
      this.options.log.warn({ gameId: dropped, backlog: limit }, 'automatic analyses backlog full: the oldest waiting game is dropped (a restart queues it again)');
    }
    this.waiting.push(gameId);
    void this.pump();
  }

  /** Queues recent rated finished games that have no stored analysis (after a restart). */
  async recover(): Promise<number> {
    let queued = 0;
    let before: string | undefined;
    for (let scanned = 0; scanned < RECOVERY_SCAN && !this.closed; ) {
      const page = await listFinished(this.options.store, { limit: 100, ...(before === undefined ? {} : { before }) });
      scanned += page.games.length;
      for (const g of page.games) {
        if (!g.setup.rated || (await getAnalysis(this.options.store, g.setup.id))) continue;
        this.queue(g.setup.id);
        queued++;
      }
      if (page.next === null) break;
      before = page.next;
    }
    if (queued > 0) this.options.log.info({ games: queued }, 'rated games without an analysis queued again');
    return queued;
  }

  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.options.analysis.off('update', this.onUpdate);
  }

  /** Hands the next waiting game to the service when none of ours is there. */
  private async pump(): Promise<void> {
    if (this.closed || this.running !== null || this.blocked) return;
    const gameId = this.waiting.shift();
    if (gameId === undefined) return;
    this.running = gameId;
    try {
      const record = await this.options.record(gameId);
      if (record === undefined || record === 'not_finished') throw new Error(record === undefined ? 'the game is gone' : 'the game is not finished');
      // Asked for by a person meanwhile: stored already.
      if (this.closed || (await getAnalysis(this.options.store, gameId))) return this.settle(gameId);
      // Undefined: a game with no placement, done at once.
      if (this.options.analysis.request(gameId, record) === undefined) this.settle(gameId);
    } catch (e) {
      if (e instanceof AnalysisQueueFullError) {
        // People's requests fill the queue: ours waits for one of them to end.
        this.waiting.unshift(gameId);
        this.running = null;
        this.blocked = true;
        return;
      }
      this.options.log.warn({ gameId, err: (e as Error).message }, 'rated game not analysed automatically');
      this.settle(gameId);
    }
  }

  private settle(gameId: string): void {
    if (this.running === gameId) this.running = null;
    void this.pump();
  }
}
