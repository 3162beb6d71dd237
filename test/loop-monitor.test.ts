// The event-loop monitor sees a blocked loop, and reading it changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoopMonitor } from '../server/loop-monitor.ts';

test('a 120 ms block shows as delay; idle ticks stay small; reads do not reset the window', async () => {
  const monitor = new LoopMonitor();
  monitor.start();
  try {
    await sleep(300);
    const idle = monitor.window(5);
    assert.ok(idle.delayMs.p50 < 15, `idle p50 ${idle.delayMs.p50} ms`);
    const until = performance.now() + 120;
    while (performance.now() < until); // block the loop
    await sleep(50);
    const busy = monitor.window(5);
    assert.ok(busy.delayMs.max >= 100, `max ${busy.delayMs.max} ms after a 120 ms block`);
    assert.ok(busy.utilization > idle.utilization);
    assert.equal(monitor.window(5).delayMs.max, busy.delayMs.max, 'a second read sees the same window');
  } finally {
    monitor.stop();
  }
});
