// Main event-loop health over rolling windows that readers never reset: a 10 ms timer records
// how late it fires (the delay any callback would see) into one histogram per second, kept for a
// minute; a window merges the last N seconds. Utilisation comes from eventLoopUtilization
// snapshots taken at the same second boundaries. After a second the loop was almost idle, the
// timer ticks every 500 ms instead, so an idle server is not woken 100 times a second; the first
// tick that finds the loop busy again goes back to 10 ms. (A block that starts and ends between
// two idle ticks shows in utilisation, not as delay.)
//
// Every histogram is allocated once and reused (reset). Their memory is native, invisible to the
// GC's heuristics: one new histogram per second and per read grew an idle server's RSS by
// ~130 KB/s until a collection happened to run (test/loop-monitor.test.ts holds it down).

import { createHistogram, performance, type EventLoopUtilization, type RecordableHistogram } from 'node:perf_hooks';
import type { LoopWindow } from './wire/pool.ts';

export type { LoopWindow };

const TICK_MS = 10;
const IDLE_TICK_MS = 500;
/** A second busy less than this is idle (the 10 ms ticks alone are ~0.2 %, up to ~1 % on a
 * CPU shared with busy processes). */
const IDLE_UTILIZATION = 0.03;
const KEEP_SECONDS = 60;
/** Delays above a minute are recorded as a minute (microseconds). */
const HIGHEST_US = 60_000_000;

// Two significant figures (1 %) are plenty for a delay, and make merging (what every read of a
// window does, up to 60 merges a second) ~3× cheaper than three: fewer buckets to walk.
const histogram = () => createHistogram({ lowest: 1, highest: HIGHEST_US, figures: 2 });

export class LoopMonitor {
  /** Seconds as a ring: `slots[(head + i) % n]` for the i-th oldest; the last used is the current second. */
  private readonly slots: { histogram: RecordableHistogram; elu: EventLoopUtilization }[] = [];
  private head = 0;
  private filled = 0;
  private current: RecordableHistogram;
  private currentStart = performance.now();
  /** Completed seconds merged, by window length, valid until the next second boundary. */
  private readonly merged = new Map<number, { histogram: RecordableHistogram; valid: boolean }>();
  private readonly scratch = histogram();
  private timer: NodeJS.Timeout | null = null;
  private expected = 0;
  private ticks = 0;
  private tickMs = TICK_MS;
  /** Utilisation at the last tick (idle ticks only: a 10 ms tick reads it once a second). */
  private lastTickElu: EventLoopUtilization;
  /** Utilisation at the start of the current second. */
  private secondStartElu: EventLoopUtilization;

  constructor() {
    const start = performance.eventLoopUtilization();
    for (let i = 0; i <= KEEP_SECONDS; i++) this.slots.push({ histogram: histogram(), elu: start });
    this.current = this.slots[0].histogram;
    this.lastTickElu = start;
    this.secondStartElu = start;
  }

  /** Milliseconds between ticks now: 10, or 500 while the loop is idle. */
  get interval(): number {
    return this.tickMs;
  }

  /** Delay samples recorded since the monitor started (one per tick). */
  get samples(): number {
    return this.ticks;
  }

  /** Whole seconds closed into the ring so far (at most a minute's). */
  get completedSeconds(): number {
    return this.filled;
  }

  /** Histograms this monitor allocated; fixed for its lifetime whatever the reads. */
  get histograms(): number {
    return this.slots.length + this.merged.size + 1;
  }

  start(): void {
    if (this.timer) return;
    this.tickMs = TICK_MS;
    this.expected = performance.now() + TICK_MS;
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Delay quantiles and utilisation over the last `seconds` (the second in progress included). */
  window(seconds: number): LoopWindow {
    const count = Math.min(seconds, this.filled);
    // Completed seconds are merged once per second boundary, not on every read (scrapes are hot).
    let completed = this.merged.get(seconds);
    if (!completed) {
      completed = { histogram: histogram(), valid: false };
      this.merged.set(seconds, completed);
    }
    if (!completed.valid) {
      completed.histogram.reset();
      for (let i = this.filled - count; i < this.filled; i++) completed.histogram.add(this.completedSecond(i).histogram);
      completed.valid = true;
    }
    const merged = this.scratch;
    merged.reset();
    merged.add(completed.histogram);
    merged.add(this.current);
    const ms = (us: number) => (merged.count === 0 || !Number.isFinite(us) ? 0 : Math.round(us) / 1000);
    // Utilisation since the end of the second before the window; the current slot still holds the
    // snapshot of the second it replaced (or the start, before the ring first wrapped).
    const from = count < this.filled ? this.completedSecond(this.filled - count - 1).elu : this.slots[(this.head + this.filled) % this.slots.length].elu;
    return {
      delayMs: { p50: ms(merged.percentile(50)), p99: ms(merged.percentile(99)), max: ms(merged.max), mean: ms(merged.mean) },
      utilization: performance.eventLoopUtilization(performance.eventLoopUtilization(), from).utilization,
      seconds: count + (performance.now() - this.currentStart) / 1000,
    };
  }

  /** The i-th oldest completed second (0 ≤ i < filled). */
  private completedSecond(i: number) {
    return this.slots[(this.head + i) % this.slots.length];
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  private tick(): void {
    const now = performance.now();
    this.current.record(Math.min(HIGHEST_US, Math.max(1, Math.round((now - this.expected) * 1000))));
    this.ticks++;
    if (this.tickMs === IDLE_TICK_MS) {
      const elu = performance.eventLoopUtilization();
      if (performance.eventLoopUtilization(elu, this.lastTickElu).utilization >= IDLE_UTILIZATION) this.tickMs = TICK_MS;
      this.lastTickElu = elu;
    }
    if (now - this.currentStart >= 1000) this.nextSecond(now);
    this.expected = performance.now() + this.tickMs;
    this.schedule();
  }

  /** Closes the current second (its slot joins the completed ones) and reuses the oldest slot. */
  private nextSecond(now: number): void {
    const n = this.slots.length;
    const closing = this.slots[(this.head + this.filled) % n];
    closing.elu = performance.eventLoopUtilization();
    const idle = performance.eventLoopUtilization(closing.elu, this.secondStartElu).utilization < IDLE_UTILIZATION;
    this.secondStartElu = closing.elu;
    if (idle && this.tickMs === TICK_MS) {
      this.tickMs = IDLE_TICK_MS;
      this.lastTickElu = closing.elu;
    }
    if (this.filled < KEEP_SECONDS) this.filled++;
    else this.head = (this.head + 1) % n;
    const next = this.slots[(this.head + this.filled) % n];
    next.histogram.reset();
    this.current = next.histogram;
    this.currentStart = now;
    for (const m of this.merged.values()) m.valid = false;
  }
}
