// Main event-loop health over rolling windows that readers never reset: a 10 ms timer records
// how late it fires (the delay any callback would see) into one histogram per second, kept for a
// minute; a window merges the last N seconds. Utilisation comes from eventLoopUtilization
// snapshots taken at the same second boundaries.

import { createHistogram, performance, type EventLoopUtilization, type RecordableHistogram } from 'node:perf_hooks';
import type { LoopWindow } from './wire/pool.ts';

export type { LoopWindow };

const TICK_MS = 10;
const KEEP_SECONDS = 60;

export class LoopMonitor {
  private current: RecordableHistogram = createHistogram();
  private currentStart = performance.now();
  private readonly ring: { histogram: RecordableHistogram; elu: EventLoopUtilization }[] = [];
  private startElu = performance.eventLoopUtilization();
  /** Merged completed seconds by window length, until the next second boundary. */
  private readonly merged = new Map<number, RecordableHistogram>();
  private timer: NodeJS.Timeout | null = null;
  private expected = 0;

  start(): void {
    if (this.timer) return;
    this.expected = performance.now() + TICK_MS;
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Delay quantiles and utilisation over the last `seconds` (the second in progress included). */
  window(seconds: number): LoopWindow {
    const recent = this.ring.slice(-seconds);
    // Completed seconds are merged once per second boundary, not on every read (scrapes are hot).
    let completed = this.merged.get(seconds);
    if (!completed) {
      completed = createHistogram();
      for (const s of recent) completed.add(s.histogram);
      this.merged.set(seconds, completed);
    }
    const merged = createHistogram();
    merged.add(completed);
    merged.add(this.current);
    const ms = (us: number) => (merged.count === 0 || !Number.isFinite(us) ? 0 : Math.round(us) / 1000);
    const from = recent.length > 0 ? (this.ring[this.ring.length - recent.length - 1]?.elu ?? this.startElu) : (this.ring.at(-1)?.elu ?? this.startElu);
    return {
      delayMs: { p50: ms(merged.percentile(50)), p99: ms(merged.percentile(99)), max: ms(merged.max), mean: ms(merged.mean) },
      utilization: performance.eventLoopUtilization(performance.eventLoopUtilization(), from).utilization,
      seconds: recent.length + (performance.now() - this.currentStart) / 1000,
    };
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    const now = performance.now();
    this.current.record(Math.max(1, Math.round((now - this.expected) * 1000)));
    if (now - this.currentStart >= 1000) {
      this.ring.push({ histogram: this.current, elu: performance.eventLoopUtilization() });
      if (this.ring.length > KEEP_SECONDS) this.ring.shift();
      this.merged.clear();
      this.current = createHistogram();
      this.currentStart = now;
    }
    this.expected = performance.now() + TICK_MS;
    this.schedule();
  }
}
