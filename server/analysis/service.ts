// Game analyses: a FIFO of finished games to analyse, fed to the pool one position at a time at
// background priority (idle workers only; bot moves first). Progress is an event per position;
// a finished analysis is stored with its game and served from the store from then on.

import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { type AnalysisPosition, ANALYSIS_SAMPLES, analysisPositions } from '../../bot-engine/analysis.ts';
import type { GameRecord } from '../../bot-engine/record.ts';
import { fnv1a, mixSeed } from '../../bot-engine/rng.ts';
import { CodedError } from '../errors.ts';
import type { GameStore } from '../games/store.ts';
import { getAnalysis, saveAnalysis } from '../games/store-operations.ts';
import type { BotPool } from '../pool/pool.ts';
import type { AnalysisAnswer, AnalysisProgress } from '../wire/analysis.ts';
import { fromStored, type StoredAnalysis, type StoredPosition, toWire } from './stored.ts';

/** Bumped when the method changes: stored analyses say which one made them. */
export const ANALYSIS_VERSION = 4;
/** A position whose task fails (a worker crash) is tried this many times before the job ends. */
const ATTEMPTS = 3;
/** Failed analyses remembered (to answer "failed" rather than "never asked"), newest kept. */
const FAILURES_KEPT = 100;

/** The queue of analyses is at its bound: the caller should ask again later. */
export class AnalysisQueueFullError extends CodedError {
  override name = 'AnalysisQueueFullError';
  constructor(waiting: number) {
    super('analysis_queue_full', `${waiting} analyses are waiting or running; ask again later`, { retryAfterSeconds: 30 });
  }
}

export interface AnalysisServiceOptions {
  pool: Pick<BotPool, 'analyse' | 'size'>;
  store: Pick<GameStore, 'putDocument' | 'getDocument'>;
  log: Logger;
  /** Analyses waiting or running at once. */
  maxJobs: number;
}

interface Job {
  gameId: string;
  seed: number;
  names: string[];
  /** Replayed one position at a time, as workers free up: a batch of requests costs the main
   * thread nothing up front. */
  positions: Iterator<AnalysisPosition>;
  total: number;
  results: (StoredPosition | undefined)[];
  attempts: number[];
  next: number;
  done: number;
  failed: boolean;
}

export class AnalysisService extends EventEmitter<{ update: [answer: AnalysisAnswer] }> {
  private readonly options: AnalysisServiceOptions;
  private readonly jobs: Job[] = [];
  private readonly failures = new Map<string, AnalysisProgress>();
  private inFlight = 0;
  private closed = false;

  constructor(options: AnalysisServiceOptions) {
    super();
    this.options = options;
    this.setMaxListeners(0);
  }

  /** The progress of one waiting, running or failed, the stored analysis, or undefined. */
  async status(gameId: string): Promise<AnalysisAnswer | undefined> {
    const pending = this.pending(gameId);
    if (pending) return pending;
    const stored = await getAnalysis(this.options.store, gameId);
    return stored && fromStored(gameId, stored);
  }

  /** Queues a finished game's analysis (once: asking again answers its status, or starts a
   * failed one afresh). Checks and queues in one step, so two requests queue it once. */
  request(gameId: string, record: GameRecord): AnalysisProgress | undefined {
    const known = this.pending(gameId);
    if (known && known.status !== 'failed') return known;
    this.failures.delete(gameId);
    if (this.jobs.length >= this.options.maxJobs) throw new AnalysisQueueFullError(this.jobs.length);
    const total = record.moves.filter((m) => !('discard' in m)).length;
    const job: Job = {
      gameId,
      seed: fnv1a(record.seed ?? gameId),
      names: record.players,
      positions: analysisPositions(record),
      total,
      results: new Array(total),
      attempts: new Array(total).fill(0),
      next: 0,
      done: 0,
      failed: false,
    };
    this.jobs.push(job);
    this.options.log.info({ gameId, positions: total, queued: this.jobs.length }, 'game analysis queued');
    if (total === 0) {
      void this.complete(job);
      return undefined;
    }
    this.pump();
    return this.pending(gameId);
  }

  /** A job's progress, or its failure, without the store. */
  private pending(gameId: string): AnalysisProgress | undefined {
    const i = this.jobs.findIndex((j) => j.gameId === gameId);
    return i >= 0 ? this.progress(this.jobs[i], i) : this.failures.get(gameId);
  }

  close(): void {
    this.closed = true;
    this.jobs.length = 0;
  }

  /** Keeps one position per worker in flight: the pool runs them only on idle workers, so
   * more would only sit in its background queue. */
  private pump(): void {
    while (!this.closed && this.inFlight < this.options.pool.size) {
      const job = this.jobs.find((j) => j.next < j.total && !j.failed);
      if (!job) return;
      let position: AnalysisPosition;
      try {
        const step = job.positions.next();
        if (step.done) throw new Error(`the record has fewer placements than the ${job.total} counted`);
        position = step.value;
      } catch (e) {
        this.fail(job, (e as Error).message);
        continue;
      }
      this.run(job, job.next++, position);
    }
  }

  private run(job: Job, index: number, p: AnalysisPosition): void {
    this.inFlight++;
    job.attempts[index]++;
    this.options.pool.analyse({ state: p.view.buffer.slice(0), played: p.played, seed: mixSeed(job.seed, p.moveIndex) }).then(
      (verdict) => {
        this.inFlight--;
        if (this.closed || job.failed) return;
        if (!verdict) return this.fail(job, `position ${p.moveIndex} has no verdict`);
        job.results[index] = { moveIndex: p.moveIndex, seat: p.seat, tile: p.tile, ...verdict };
        job.done++;
        if (job.done === job.total) void this.complete(job);
        else this.emit('update', this.progress(job, this.jobs.indexOf(job)));
        this.pump();
      },
      (e: Error) => {
        this.inFlight--;
        if (this.closed || job.failed) return;
        if (job.attempts[index] >= ATTEMPTS) return this.fail(job, e.message);
        this.options.log.warn({ gameId: job.gameId, moveIndex: p.moveIndex, err: e.message }, 'analysis position failed: trying again');
        this.run(job, index, p);
      },
    );
  }

  private async complete(job: Job): Promise<void> {
    const stored: StoredAnalysis = {
      v: 1,
      createdAt: new Date().toISOString(),
      engine: { level: 'expert', samples: ANALYSIS_SAMPLES, version: ANALYSIS_VERSION },
      names: job.names,
      positions: job.results as StoredPosition[],
    };
    try {
      await saveAnalysis(this.options.store, job.gameId, stored);
    } catch (e) {
      // Not kept: asking again analyses the game again (same result).
      this.options.log.warn({ gameId: job.gameId, err: (e as Error).message }, 'game analysis finished but could not be stored');
    }
    // Removed only once stored: until then, asking answers "running", never "not asked".
    this.remove(job);
    this.options.log.info({ gameId: job.gameId, positions: stored.positions.length }, 'game analysis done');
    this.emit('update', toWire(job.gameId, stored));
    this.pump();
  }

  private fail(job: Job, why: string): void {
    job.failed = true;
    const failed: AnalysisProgress = { ...this.progress(job, 0), status: 'failed', message: why };
    this.remove(job);
    this.failures.set(job.gameId, failed);
    if (this.failures.size > FAILURES_KEPT) this.failures.delete(this.failures.keys().next().value!);
    this.options.log.error({ gameId: job.gameId, why }, 'game analysis failed');
    this.emit('update', failed);
    this.pump();
  }

  private remove(job: Job): void {
    const i = this.jobs.indexOf(job);
    if (i >= 0) this.jobs.splice(i, 1);
  }

  private progress(job: Job, index: number): AnalysisProgress {
    const running = job.next > 0;
    return { gameId: job.gameId, status: running ? 'running' : 'queued', position: running ? 0 : index, done: job.done, total: job.total };
  }
}
