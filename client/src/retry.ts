// When the game's connection tries again, and how long it waits: every fault that passes by
// itself (docs/PROTOCOL.md §6, "Reconnecting") is retried with backoff and jitter, shown as
// "reconnecting" with its cause; only a game that does not exist stops the client.

import { CLOSE } from '../../server/wire/close.ts';

/** Answers to a `hello` that pass by themselves (a takeover, an outage, a busy server). */
const RETRYABLE_HELLO_ERRORS: Record<string, string> = {
  game_elsewhere: 'the game is moving to another server',
  overloaded: 'the server is busy',
  storage_unavailable: 'the server cannot store games right now',
  internal: 'the server failed',
  shutting_down: 'the server is restarting',
};

/** Why the client reconnects after a refused hello, or null when retrying would not help. */
export function helloRetry(code: string): string | null {
  return Object.hasOwn(RETRYABLE_HELLO_ERRORS, code) ? RETRYABLE_HELLO_ERRORS[code] : null;
}

/** Close codes the server uses, in words. */
const CLOSES: Record<number, string> = {
  [CLOSE.shutdown]: 'the server is restarting',
  [CLOSE.moved]: 'the game moved to another server',
  [CLOSE.slowConsumer]: 'the connection fell behind',
  [CLOSE.relayLost]: 'the link to the game’s server broke',
};

/** Why the client reconnects after the socket closed with `code`. Every close is retried. */
export function closeRetry(code: number, reason = ''): string {
  if (code === CLOSE.policy) return `closed by the server: ${reason || 'policy'}`;
  return CLOSES[code] ?? 'connection lost';
}

/** Closes after which the game is likely served again at once (moved): the first retry is quick. */
const QUICK = new Set<number>([CLOSE.moved]);

/** Milliseconds before reconnection attempt `attempt` (1, 2, …): exponential from 400 ms up to
 * 8 s, with full jitter over its upper half so that a crowd of clients does not come back at once. */
export function backoffMs(attempt: number, random: () => number = Math.random, lastClose?: number): number {
  if (attempt <= 1 && lastClose !== undefined && QUICK.has(lastClose)) return 50 + random() * 150;
  const base = Math.min(8000, 400 * 2 ** Math.min(Math.max(attempt, 1) - 1, 5));
  return base / 2 + random() * (base / 2);
}
