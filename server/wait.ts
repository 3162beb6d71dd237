// Waiting for something that announces nothing (games finishing their writes, sockets closing):
// look every 20 ms, give up after a grace period.

import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 20;

/** Resolves once `done()` holds or `graceMs` has passed; true when it held. */
export async function waitUntil(done: () => boolean, graceMs: number): Promise<boolean> {
  const until = Date.now() + graceMs;
  while (!done()) {
    if (Date.now() >= until) return false;
    await sleep(POLL_MS);
  }
  return true;
}
