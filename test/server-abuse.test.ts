// Limits an operator of a public server needs: per-address rate limits on the routes that create
// state, a cap on WebSocket connections per address and on watchers per game, watchers that cost
// one frame each (not a resend to everyone), the origin's scheme checked, and protocol violations
// logged as the client's fault in one budgeted warn line.

import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { PROTOCOL_VERSION } from '../server/ws/protocol.ts';
import { Client, createGame, get, injectServer, post, type Running, startServer, WAIT } from './server-helpers.ts';

const logLines: string[] = [];
let server: Running;

before(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(line) });
  server = await startServer({ wsPerIp: 8, watchersPerGame: 5, logLevel: 'info' }, true, { logger });
});
after(() => server.app.close());

/** A raw upgrade request; resolves with the socket and the status line's code. */
function upgrade(headers: Record<string, string> = {}): Promise<{ socket: Socket; status: number }> {
  const url = new URL(server.ws);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(
        `GET /ws HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${extra.join('')}\r\n`,
      );
    });
    socket.once('data', (chunk) => resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString())?.[1]) }));
    socket.on('error', reject);
  });
}

const metrics = async () => (await get(server.base, '/metrics')).body as string;
/** WebSocket connections the server holds open (it forgets one when its socket closes). */
const openSockets = async () => Number(/^tessera_ws_connections (\d+)$/m.exec(await metrics())?.[1]);
const violationsCounted = async () => [...(await metrics()).matchAll(/^tessera_ws_protocol_violations_total\{code="\w+"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);

/** A masked client frame (mask key 0: the payload goes as is). */
const frame = (opcode: number, payload: Buffer) => Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length, 0, 0, 0, 0]), payload]);

test('creating games and taking seats is rate-limited per address: 429 with Retry-After', async () => {
  const limited = await injectServer({ createsPerMinute: 3 });
  try {
    const body = { seats: [{ kind: 'person' }, { kind: 'person' }] };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(limited.base, '/api/games', body)).body.id);
    const refused = await post(limited.base, '/api/games', body);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'too_many_requests');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    // Taking seats has its own budget.
    for (let i = 0; i < 3; i++) assert.equal((await post(limited.base, `/api/games/${ids[i]}/seats`, { name: 'ann' })).status, 201);
    assert.equal((await post(limited.base, `/api/games/${ids[0]}/seats`, { name: 'bob' })).status, 429);
    // Reads are not limited.
    for (let i = 0; i < 10; i++) assert.equal((await get(limited.base, '/api/games')).status, 200);
  } finally {
    await limited.app.close();
  }
});

test('WebSocket connections per address are capped; a closed one frees its place', async (t) => {
  const open: Socket[] = [];
  for (let i = 0; i < 8; i++) {
    const { socket, status } = await upgrade();
    assert.equal(status, 101);
    open.push(socket);
  }
  const over = await upgrade();
  assert.equal(over.status, 429);
  over.socket.destroy();
  open.pop()!.destroy();
  await t.waitFor(async () => assert.equal(await openSockets(), 7), WAIT); // the server saw the close
  const again = await upgrade();
  assert.equal(again.status, 101);
  again.socket.destroy();
  for (const s of open) s.destroy();
});

test('the origin must match the scheme too, not only host and port', async () => {
  const host = new URL(server.base).host;
  const a = await upgrade({ Origin: `https://${host}` });
  const b = await upgrade({ Origin: `http://${host}` });
  a.socket.destroy();
  b.socket.destroy();
  assert.deepEqual([a.status, b.status], [403, 101]);
});

test('watchers cost one frame each, not a resend to everyone; their number is capped', async (t) => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'person' }]);
  const player = await Client.join(server.ws, id, tokens.get(0));
  await player.latestState();
  await player.roundTrip();
  player.frames.length = 0;
  for (let round = 0; round < 3; round++) {
    const watchers = await Promise.all(Array.from({ length: 5 }, () => Client.join(server.ws, id)));
    for (const w of watchers) assert.equal((await w.latestState()).view.you, null);
    const sixth = await Client.connect(server.ws);
    sixth.send({ type: 'hello', v: PROTOCOL_VERSION, gameId: id, id: 'w6' });
    const refused = await sixth.next((f) => f.type === 'error');
    assert.deepEqual([refused.code, refused.ref], ['too_many_watchers', 'w6']);
    sixth.close();
    for (const w of watchers) w.close();
    await Promise.all(watchers.map((w) => w.closedWith()));
  }
  // The server has dropped every watcher; a frame they caused would have come before the pong.
  await t.waitFor(async () => assert.equal(await openSockets(), 1), WAIT);
  await player.roundTrip();
  assert.deepEqual(player.frames, [], 'watchers coming and going sent the player nothing');
  player.close();
});

test('protocol violations: the socket closes, one warn line each, no stack, and a budget on them', async (t) => {
  const before = logLines.length;
  const closes: Promise<void>[] = [];
  for (let i = 0; i < 25; i++) {
    const { socket, status } = await upgrade();
    assert.equal(status, 101);
    closes.push(new Promise((r) => socket.on('close', () => r())));
    // Invalid UTF-8 in a text frame, a reserved opcode: alternately.
    socket.write(i % 2 ? frame(0x1, Buffer.from([0xff, 0xfe, 0xfd])) : frame(0x3, Buffer.from('x')));
  }
  await Promise.all(closes);
  // The server counts each violation, then logs it: all counted, all logged.
  await t.waitFor(async () => assert.equal(await violationsCounted(), 25), WAIT);
  const lines = logLines.slice(before).map((l) => JSON.parse(l));
  const violations = lines.filter((l) => /protocol violation/.test(l.msg));
  assert.equal(violations.length, 20, 'at most 20 such lines a minute');
  for (const v of violations) {
    assert.equal(v.level, 40);
    assert.equal(v.err, undefined);
    assert.match(v.code, /^WS_ERR_/);
  }
  assert.deepEqual(
    lines.filter((l) => l.level >= 50),
    [],
  );
});

test('no log line carries a second "level" key', () => {
  assert.ok(logLines.length > 0);
  for (const line of logLines) assert.equal(line.match(/"level":/g)?.length, 1, line);
});
