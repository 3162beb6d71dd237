// The browser client's reconnection: which refused hellos and closes it retries (all that pass
// by themselves), its backoff, and the real GameSocket (client/src/net.ts) in Node against a
// scripted protocol peer: a hello answered `game_elsewhere` is tried again, shown as
// "reconnecting" with its cause, until a welcome comes.

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { backoffMs, closeRetry, helloRetry } from '../client/src/retry.ts';
import { CLOSE } from '../server/wire/close.ts';

test('retry policy: every refused hello that passes by itself is retried; a missing game or a bad token is not', () => {
  for (const code of ['game_elsewhere', 'overloaded', 'storage_unavailable', 'internal', 'shutting_down']) assert.ok(helloRetry(code), code);
  for (const code of ['unknown_game', 'bad_token', 'unsupported_version', 'too_many_watchers', 'already_joined']) assert.equal(helloRetry(code), null, code);
  assert.match(helloRetry('game_elsewhere')!, /moving to another server/);
});

test('retry policy: every close the server sends is retried, each with its cause in words', () => {
  assert.deepEqual(
    [CLOSE.shutdown, CLOSE.moved, CLOSE.slowConsumer, CLOSE.relayLost, 1006].map((c) => closeRetry(c)),
    ['the server is restarting', 'the game moved to another server', 'the connection fell behind', 'the link to the game’s server broke', 'connection lost'],
  );
  assert.equal(closeRetry(CLOSE.policy, 'rate limit exceeded'), 'closed by the server: rate limit exceeded');
});

test('retry policy: backoff doubles from 400 ms to at most 8 s, jittered over its upper half; a moved game is tried again at once', () => {
  const low = () => 0;
  const high = () => 0.999999;
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffMs(n, low)),
    [200, 400, 800, 1600, 3200, 4000, 4000, 4000],
  );
  assert.ok(Math.abs(backoffMs(1, high) - 400) < 0.01);
  assert.ok(Math.abs(backoffMs(9, high) - 8000) < 0.01);
  assert.ok(backoffMs(1, high, CLOSE.moved) <= 200, 'the first retry after 1012 is quick');
  assert.equal(backoffMs(2, low, CLOSE.moved), 400, 'later ones back off as usual');
  assert.equal(backoffMs(1, low, CLOSE.relayLost), 200);
});

/** The globals net.ts uses in a browser, enough for it to run in Node. */
function browserGlobals(host: string): void {
  const g = globalThis as Record<string, unknown>;
  const events = new EventTarget();
  g.window = Object.assign(events, { setTimeout, clearTimeout, setInterval, clearInterval });
  g.document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  g.location = { protocol: 'http:', host };
}

test('GameSocket: hellos refused with game_elsewhere and storage_unavailable are retried with backoff, shown as reconnecting, until welcomed', async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  // The peer refuses the first two hellos (as an instance does while a game is taken over or
  // its database is out), then welcomes.
  const answers = [
    { type: 'error', code: 'game_elsewhere', message: 'game g is played on another instance', ref: 'hello' },
    { type: 'error', code: 'storage_unavailable', message: 'the database cannot be reached', ref: 'hello' },
    { type: 'welcome', v: 1, gameId: 'g', seat: 0, history: [], chat: [] },
  ];
  const hellos: number[] = [];
  wss.on('connection', (socket) =>
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type !== 'hello') return;
      hellos.push(Date.now());
      socket.send(JSON.stringify(answers[Math.min(hellos.length - 1, answers.length - 1)]));
    }),
  );
  browserGlobals(`127.0.0.1:${(wss.address() as AddressInfo).port}`);
  // Imported by a computed path: the server's type check (no DOM library) must not follow it.
  const net = '../client/src/net.ts';
  const { GameSocket } = (await import(net)) as { GameSocket: new (gameId: string, token: string, events: Record<string, unknown>) => { close(): void } };
  const states: string[] = [];
  const errors: string[] = [];
  let welcomed!: () => void;
  const welcome = new Promise<void>((r) => (welcomed = r));
  const socket = new GameSocket('g', 'token', {
    onConnState: (s: string, detail?: string) => states.push(detail ? `${s}: ${detail}` : s),
    onError: (code: string) => errors.push(code),
    onWelcome: () => welcomed(),
  });
  try {
    await Promise.race([welcome, new Promise((_, reject) => setTimeout(() => reject(new Error(`no welcome; states ${states.join(' | ')}`)), 10_000).unref())]);
    assert.equal(hellos.length, 3);
    // Each new attempt keeps saying why it retries, until the next answer says something else.
    assert.deepEqual(states, [
      'connecting',
      'reconnecting: the game is moving to another server',
      'reconnecting: the game is moving to another server',
      'reconnecting: the server cannot store games right now',
      'reconnecting: the server cannot store games right now',
      'open',
    ]);
    assert.deepEqual(errors, [], 'a retried hello is no error for the screen to toast');
    assert.ok(hellos[2] - hellos[1] >= 300, 'the second retry waits longer than the first could');
  } finally {
    socket.close();
    await new Promise((r) => wss.close(r));
  }
});

test('GameSocket: reconnects straight to the instance its welcome named (?instance=), except after 1012 (the game moved)', async () => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const urls: string[] = [];
  // Each connection is welcomed by "node-a", then closed: first as a broken relay (4000), then as a moved game (1012).
  const closes = [CLOSE.relayLost, CLOSE.moved, null];
  wss.on('connection', (socket, request) => {
    urls.push(request.url ?? '');
    const close = closes[urls.length - 1];
    socket.on('message', () => {
      socket.send(JSON.stringify({ type: 'welcome', v: 1, gameId: 'g', seat: 0, history: [], chat: [], instance: 'node-a' }));
      if (close) setTimeout(() => socket.close(close, 'test'), 20);
    });
  });
  browserGlobals(`127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const net = '../client/src/net.ts';
  const { GameSocket } = (await import(net)) as { GameSocket: new (gameId: string, token: string, events: Record<string, unknown>) => { close(): void } };
  const socket = new GameSocket('g', 'token', {});
  try {
    const end = Date.now() + 10_000;
    while (urls.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(urls, ['/ws', '/ws?instance=node-a', '/ws']);
  } finally {
    socket.close();
    await new Promise((r) => wss.close(r));
  }
});
