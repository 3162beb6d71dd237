// The event-loop monitor sees a blocked loop, and reading it changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoopMonitor } from '../server/loop-monitor.ts';
import { Metrics } from '../server/metrics.ts';

/** Polls the monitor's own count of samples: waits for ticks, not for a time. */
const WAIT = { timeout: 10_000, interval: 5 };

test('a 120 ms block shows as delay; idle ticks stay small; reads do not reset the window', async (t) => {
  const monitor = new LoopMonitor();
  monitor.start();
  try {
    await t.waitFor(() => assert.ok(monitor.samples >= 20), WAIT);
    const idle = monitor.window(5);
    assert.ok(idle.delayMs.p50 < 15, `idle p50 ${idle.delayMs.p50} ms`);
    const ticked = monitor.samples;
    const until = performance.now() + 120;
    while (performance.now() < until); // block the loop
    // The first tick after the block is the one that was kept waiting.
    await t.waitFor(() => assert.ok(monitor.samples > ticked), WAIT);
    const busy = monitor.window(5);
    assert.ok(busy.delayMs.max >= 100, `max ${busy.delayMs.max} ms after a 120 ms block`);
    assert.ok(busy.utilization > idle.utilization);
    assert.equal(monitor.window(5).delayMs.max, busy.delayMs.max, 'a second read sees the same window');
  } finally {
    monitor.stop();
  }
});

test('reading the monitor allocates nothing: its histograms are fixed and RSS stays flat', async (t) => {
  const monitor = new LoopMonitor();
  monitor.start();
  try {
    await t.waitFor(() => assert.ok(monitor.completedSeconds >= 1, 'past a second boundary: the ring turns'), { ...WAIT, interval: 50 });
    for (const s of [1, 5, 60]) monitor.window(s);
    const histograms = monitor.histograms;
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    // The dashboard reads every second, scrapers too: 20,000 reads is months of that in a burst.
    for (let i = 0; i < 20_000; i++) monitor.window([1, 5, 60][i % 3]);
    const grown = (process.memoryUsage().rss - before) / 1048576;
    assert.equal(monitor.histograms, histograms);
    // One new histogram per read (the old code) grew RSS by about 2 GB here.
    assert.ok(grown < 64, `RSS grew ${grown.toFixed(1)} MB over 20,000 reads`);
  } finally {
    monitor.stop();
  }
});

test('an idle loop is ticked every 500 ms, not 100 times a second; work brings the 10 ms ticks back', async (t) => {
  const monitor = new LoopMonitor();
  monitor.start();
  try {
    assert.equal(monitor.interval, 10);
    // Polled slowly: the poll itself must leave the loop idle.
    await t.waitFor(() => assert.equal(monitor.interval, 500), { timeout: 10_000, interval: 100 });
    const ticked = monitor.samples;
    const until = performance.now() + 60;
    while (performance.now() < until); // work: the next idle tick sees the loop busy
    await t.waitFor(() => assert.equal(monitor.interval, 10), { timeout: 10_000, interval: 100 });
    await t.waitFor(() => assert.ok(monitor.samples >= ticked + 20, 'ticking every 10 ms again'), WAIT);
  } finally {
    monitor.stop();
  }
});

test('one event-loop delay monitor: /metrics has ours and Node process metrics, not prom-client lag monitor', async () => {
  const metrics = new Metrics();
  try {
    const text = await metrics.render();
    assert.match(text, /^tessera_event_loop_delay_seconds\{quantile="0.99"\} /m);
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds', 'nodejs_version_info']) {
      assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    assert.doesNotMatch(text, /nodejs_eventloop_lag/, 'prom-client monitorEventLoopDelay is not started');
  } finally {
    metrics.close();
  }
});
