// Graceful shutdown of the real server process: SIGTERM closes sockets with 1001, lets the bot
// move in flight finish, closes the pool and exits 0, under load too (every acknowledged move
// stored). A failing worker module fails the boot.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { Rng } from '../bot-engine/rng.ts';
import { randomMove } from '../support/game-client.ts';
import { Client, createGame } from './server-helpers.ts';

const main = fileURLToPath(new URL('../dist/server/main.js', import.meta.url));

/** Starts dist/server/main.js on a free port; resolves once it logs "tessera ready". */
async function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; base: string; logs: any[]; stderr: string[] }> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TESSERA_BOT_WORKERS: '1', TESSERA_WARMUP_LEVEL: 'random', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: any[] = [];
  // Whatever is not a log line (a crash's stack) is kept for the assertion messages.
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk) => stderr.push(String(chunk)));
  let buffered = '';
  let base = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          const entry = JSON.parse(line);
          logs.push(entry);
          if (entry.msg === 'tessera ready') {
            base = entry.url;
            resolve();
          }
        } catch {}
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  await ready.catch(() => {});
  return { child, base, logs, stderr };
}

test('SIGTERM: sockets closed with 1001, clean exit 0', async () => {
  const { child, base, logs } = await startProcess({});
  assert.ok(base, 'server came up');
  const { id, tokens } = await createGame(base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const c = await Client.join(`${base.replace('http', 'ws')}/ws`, id, tokens.get(0));
  await c.peekState();
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const closed = await c.closedWith();
  assert.equal(closed.code, 1001);
  assert.ok(c.frames.some((f) => f.type === 'bye'));
  const [code] = await exited;
  assert.equal(code, 0);
  assert.ok(logs.some((l) => l.msg === 'shut down cleanly'));
  const sizing = logs.find((l) => l.pool?.workers);
  assert.equal(sizing.pool.workers, 1, 'pool sizing logged at boot with its inputs');
  assert.ok('availableParallelism' in sizing.pool && 'quotaSource' in sizing.pool);
});

test('SIGTERM under load (moves, bot searches and writes in flight): exit 0, every acknowledged move stored', { timeout: 90_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-sigterm-'));
  const env = { TESSERA_DATA_DIR: dataDir, TESSERA_BOT_WORKERS: '2', TESSERA_WS_RATE: '1000', TESSERA_WS_BURST: '1000' };
  const rng = new Rng(`sigterm-${Date.now()}`);
  try {
    const server = await startProcess(env);
    assert.ok(server.base, 'server came up');
    const ws = `${server.base.replace('http', 'ws')}/ws`;
    // People who move the moment their turn comes, against bots that search (hard) or answer at
    // once (greedy), and games of two people: moves, searches and writes overlap all the time.
    const tables = [
      [{ kind: 'person' }, { kind: 'bot', level: 'hard' }],
      [{ kind: 'person' }, { kind: 'bot', level: 'hard' }, { kind: 'bot', level: 'greedy' }],
      [{ kind: 'person' }, { kind: 'bot', level: 'greedy' }],
      [{ kind: 'person' }, { kind: 'person' }],
      [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'greedy' }],
    ] as const;
    const games: { id: string; clients: Client[]; acknowledged: { tile: string; x: number; y: number; rotation: number }[] }[] = [];
    for (const seats of tables) {
      const { id, tokens } = await createGame(server.base, [...seats]);
      const clients = await Promise.all([...tokens.values()].map((token) => Client.join(ws, id, token)));
      games.push({ id, clients, acknowledged: [] });
    }
    // Each state frame is an acknowledgement: the board it shows is stored.
    const players = games.flatMap((g) =>
      g.clients.map(async (c) => {
        for (;;) {
          let frame: any;
          try {
            frame = await c.next((f) => f.type === 'state', 20_000);
          } catch {
            return; // closed by the shutdown
          }
          const v = frame.view;
          if (v.board.length - 1 > g.acknowledged.length) g.acknowledged = v.board.slice(1).map((t: any) => ({ tile: t.tile, x: t.x, y: t.y, rotation: t.rotation }));
          if (v.status === 'finished') return;
          if (v.legal && !c.closed) c.send({ type: 'move', turn: v.turn, move: randomMove(v.legal, () => rng.nextU32() / 2 ** 32, 0.3) });
        }
      }),
    );
    // SIGTERM once every game has moved and while bots search.
    const until = Date.now() + 20_000;
    while (games.some((g) => g.acknowledged.length < 3) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      games.every((g) => g.acknowledged.length >= 3),
      'every game moved before the signal',
    );
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    const [code] = await exited;
    await Promise.all(players);
    const problems = server.logs.filter((l) => l.level >= 50).map((l) => l.msg);
    assert.equal(code, 0, `exit code ${code}; errors logged: ${JSON.stringify(problems)}; stderr: ${server.stderr.join('').slice(-3000)}`);
    assert.ok(server.logs.some((l) => l.msg === 'shut down cleanly'));
    assert.deepEqual(problems, [], 'no error logged on the way down');

    // Back on the same data: every game has at least the moves its players saw acknowledged.
    const again = await startProcess(env);
    try {
      for (const g of games) {
        const watcher = await Client.join(`${again.base.replace('http', 'ws')}/ws`, g.id);
        const stored = (await watcher.peekState()).view.board.slice(1).map((t: any) => ({ tile: t.tile, x: t.x, y: t.y, rotation: t.rotation }));
        watcher.close();
        assert.ok(stored.length >= g.acknowledged.length, `${g.id}: ${stored.length} stored, ${g.acknowledged.length} acknowledged`);
        assert.deepEqual(stored.slice(0, g.acknowledged.length), g.acknowledged);
      }
    } finally {
      again.child.kill('SIGTERM');
      await once(again.child, 'exit');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A WebSocket at /ws whose peer completes the upgrade and then never answers anything: the
 * server's close frame included. */
async function silentWebSocket(base: string): Promise<Socket> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  let head = '';
  while (!head.includes('\r\n\r\n')) head += String((await once(socket, 'data'))[0]);
  assert.match(head, /^HTTP\/1\.1 101 /);
  socket.resume();
  return socket;
}

test('a shutdown step longer than fastify’s 10-s plugin timeout (a grace of 11 s, a client that never answers the close) still exits 0', { timeout: 60_000 }, async () => {
  const graceMs = 11_000;
  const { child, base, logs, stderr } = await startProcess({ TESSERA_SHUTDOWN_GRACE_MS: String(graceMs) });
  assert.ok(base, 'server came up');
  // A peer gone silent (its network dropped): it never reads the server's close frame, so the
  // sockets' shutdown step waits out the whole grace before it ends the socket.
  const silent = await silentWebSocket(base);
  const ended = once(silent, 'close');
  const exited = once(child, 'exit');
  const started = Date.now();
  child.kill('SIGTERM');
  const [code] = await exited;
  const tookMs = Date.now() - started;
  const problems = logs.filter((l) => l.level >= 50).map((l) => `${l.msg} ${l.err?.message ?? ''}`);
  assert.equal(code, 0, `exit code ${code} after ${tookMs} ms; errors logged: ${JSON.stringify(problems)}; stderr: ${stderr.join('').slice(-2000)}`);
  assert.ok(tookMs >= graceMs, `the sockets' step waited its grace (${tookMs} ms)`);
  assert.ok(logs.some((l) => l.msg === 'shut down cleanly'));
  assert.deepEqual(problems, []);
  await ended;
});

test('a worker module that throws at load fails the boot with a clear error', async () => {
  const { child, logs } = await startProcess({ TESSERA_WORKER_FILE: fileURLToPath(new URL('./fixtures/pool-throw-worker.mjs', import.meta.url)) });
  const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
  assert.equal(code, 1);
  const fatal = logs.find((l) => l.level === 60);
  assert.match(fatal.msg, /bot pool failed to start: .*bot tables missing \(fixture\)/);
});

test('a port already in use: one clear line on stderr and exit 2, no stack', async () => {
  const first = await startProcess({ TESSERA_DATA_DIR: ':memory:' });
  try {
    const port = new URL(first.base).port;
    const second = spawn(process.execPath, [main], {
      env: { ...process.env, PORT: port, HOST: '127.0.0.1', TESSERA_DATA_DIR: ':memory:', TESSERA_BOT_WORKERS: '1', TESSERA_WARMUP_LEVEL: 'random' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    second.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(second, 'exit');
    assert.equal(code, 2);
    assert.equal(stderr.trim().split('\n').length, 1, stderr);
    assert.match(stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`));
  } finally {
    first.child.kill('SIGTERM');
    await once(first.child, 'exit');
  }
});
