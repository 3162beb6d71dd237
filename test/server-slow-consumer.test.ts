// A peer that stops reading must not grow the server's memory: past the buffered-output bound
// its connection is dropped instead of queueing more frames.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { Connection } from '../server/ws/connection.ts';
import { Metrics } from '../server/metrics.ts';
import type { GameDirectory } from '../server/directory/directory.ts';
import { CauseBudgets } from '../server/log.ts';

function fakeSocket() {
  const sent: string[] = [];
  const socket = {
    isOpen: true,
    bufferedAmount: 0,
    terminated: false,
    send(data: string) {
      sent.push(data);
      this.bufferedAmount += data.length; // nothing is ever read
    },
    close() {},
    terminate() {
      this.terminated = true;
      this.isOpen = false;
    },
  };
  return { socket, sent };
}

test('a slow consumer is dropped once its unread output passes the bound', () => {
  const metrics = new Metrics();
  const { socket, sent } = fakeSocket();
  const conn = new Connection(socket, {
    directory: {} as GameDirectory,
    metrics,
    log: pino({ level: 'silent' }),
    logBudget: new CauseBudgets(1, 60_000),
    maxMessageBytes: 4096,
    messagesPerSecond: 10,
    burst: 10,
    maxBufferedBytes: 10_000,
    watchersPerGame: 10,
  });
  const frame = { type: 'bye' as const, reason: 'x'.repeat(3000) };
  for (let i = 0; i < 10; i++) conn.send(frame);
  assert.equal(socket.terminated, true);
  assert.ok(sent.length <= 5, `${sent.length} frames queued before the drop`);
  const before = sent.length;
  conn.send(frame);
  assert.equal(sent.length, before, 'nothing is sent to a dropped peer');
  metrics.close();
});
