// Every rejected frame gets a typed error frame and leaves the game exactly as it was; HTTP
// errors have one shape; the WebSocket limits (payload, rate, origin) hold.

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { Client, createGame, get, post, type Running, startServer } from './server-helpers.ts';

let server: Running;
before(async () => {
  server = await startServer({ wsMaxMessageBytes: 1024, wsMaxPayload: 8192, wsMessagesPerSecond: 5, wsBurst: 30, allowedOrigins: ['https://play.example'] });
});
after(async () => {
  await server.app.close();
});

/** Sends a frame, expects a typed error with `code`, then checks the state did not change. */
async function rejected(c: Client, frame: unknown, code: string, gameId: string): Promise<any> {
  const before = (await get(server.base, `/api/games/${gameId}`)).body;
  c.send(frame);
  const err = await c.next((f) => f.type === 'error');
  assert.equal(err.code, code, JSON.stringify(err));
  assert.equal(typeof err.message, 'string');
  assert.ok(!/at .*\.ts:\d+/.test(err.message), 'no stack trace');
  const afterwards = (await get(server.base, `/api/games/${gameId}`)).body;
  assert.deepEqual(afterwards, before, 'state unchanged');
  return err;
}

test('illegal, out-of-turn, stale, unauthenticated, malformed and oversize frames get typed errors', async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'person' }]);
  const p0 = await Client.join(server.ws, id, tokens.get(0));
  const p1 = await Client.join(server.ws, id, tokens.get(1));
  const view = (await p0.peekState()).view;
  assert.equal(view.currentSeat, 0);
  const legal = view.legal[0];
  const good = { x: legal.x, y: legal.y, rotation: legal.rotation, meeple: null };

  await rejected(p0, { type: 'move', turn: view.turn, move: { x: 40, y: 40, rotation: 0, meeple: null } }, 'illegal_move', id);
  await rejected(p0, { type: 'move', turn: view.turn, move: { ...good, meeple: 'city:Q' } }, 'illegal_move', id);
  await rejected(p1, { type: 'move', turn: view.turn, move: good }, 'not_your_turn', id);
  await rejected(p0, { type: 'move', turn: view.turn + 1, move: good }, 'stale_turn', id);
  const withRef = await rejected(p0, { type: 'move', turn: 0, move: { ...good, rotation: 45 }, id: 'm1' }, 'bad_frame', id);
  assert.equal(withRef.ref, 'm1');
  assert.match(withRef.message, /rotation/);
  await rejected(p0, { type: 'move', turn: 0, move: good, extra: 1 }, 'bad_frame', id);
  await rejected(p0, { type: 'launch' }, 'bad_frame', id);
  // Keys named like built-in object members are unknown properties too: refused, nothing played.
  for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
    assert.match((await rejected(p0, `{"type":"ping","${key}":1}`, 'bad_frame', id)).message, new RegExp(`${key} is not allowed`));
    await rejected(p0, `{"type":"move","turn":${view.turn},"move":{"x":${good.x},"y":${good.y},"rotation":${good.rotation},"meeple":null,"${key}":1}}`, 'bad_frame', id);
  }
  await rejected(p0, '{"type": "move", ', 'bad_json', id);
  await rejected(p0, '[1,2]', 'bad_frame', id);
  await rejected(p0, { type: 'hello', v: 1, gameId: id }, 'already_joined', id);
  await rejected(p0, { type: 'ping', id: 'x'.repeat(2000) }, 'too_large', id);
  // An id outside the protocol's (string ≤ 64, integer) refuses the frame and is not echoed.
  for (const bad of ['x'.repeat(65), 1.5, { a: 1 }]) assert.equal((await rejected(p0, { type: 'ping', id: bad }, 'bad_frame', id)).ref, undefined);
  // A claim with no bot standing in changes nothing, and says so.
  assert.equal((await rejected(p0, { type: 'claim', id: 7 }, 'no_stand_in', id)).ref, 7);

  // Wrong token, missing token (a watcher), no hello at all, unknown game, wrong version.
  const stranger = await Client.connect(server.ws);
  stranger.send({ type: 'ping', id: 'before-hello' });
  assert.equal((await stranger.next((f) => f.type === 'pong')).ref, 'before-hello');
  await rejected(stranger, { type: 'claim' }, 'not_joined', id);
  await rejected(stranger, { type: 'move', turn: 0, move: good }, 'not_joined', id);
  await rejected(stranger, { type: 'hello', v: 1, gameId: id, token: 'not-a-token' }, 'bad_token', id);
  await rejected(stranger, { type: 'hello', v: 1, gameId: 'nope' }, 'unknown_game', id);
  await rejected(stranger, { type: 'hello', v: 3, gameId: id }, 'unsupported_version', id);
  stranger.send({ type: 'hello', v: 1, gameId: id });
  assert.equal((await stranger.next((f) => f.type === 'welcome')).seat, null);
  await rejected(stranger, { type: 'move', turn: 0, move: good }, 'not_seated', id);

  // After all that, the right move from the right seat is accepted. A second connection with the
  // same token plays the same seat: it sees the move, and the same move sent again is stale.
  const p0again = await Client.join(server.ws, id, tokens.get(0));
  assert.equal(p0again.welcome.seat, 0);
  p0.send({ type: 'move', turn: view.turn, move: good, id: 'ok' });
  const next = await p1.latestState((f) => f.view.turn > view.turn);
  assert.equal(next.view.currentSeat, 1);
  assert.equal(next.last.seat, 0);
  assert.deepEqual(next.last.move, good);
  assert.equal((await p0again.latestState((f) => f.view.turn > view.turn)).view.you, 0);
  await rejected(p0again, { type: 'move', turn: view.turn, move: good }, 'stale_turn', id);
  p0again.close();

  // A frame over maxPayload ends the connection with 1009.
  p1.send('x'.repeat(9000));
  assert.equal((await p1.closedWith()).code, 1009);
  for (const c of [p0, stranger]) c.close();
});

test('a connection over its rate limit gets rate_limited errors', async () => {
  const c = await Client.connect(server.ws);
  for (let i = 0; i < 40; i++) c.send({ type: 'ping', id: i });
  const limited = await c.next((f) => f.type === 'error' && f.code === 'rate_limited');
  assert.match(limited.message, /5 messages a second/);
  assert.ok(c.frames.filter((f) => f.type === 'pong').length <= 31);
  c.close();
});

test('a browser origin outside the allow-list cannot open a WebSocket', async () => {
  const url = new URL(server.ws);
  // A raw socket: node:http's client does not report a refused upgrade cleanly.
  const status = (origin: string) =>
    new Promise<number>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `GET /ws HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: ${origin}\r\n\r\n`,
        );
      });
      socket.once('data', (chunk) => {
        socket.destroy();
        resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString())?.[1]));
      });
      socket.on('error', reject);
    });
  assert.equal(await status('https://evil.example'), 403);
  assert.equal(await status('https://play.example'), 101);
});

test('HTTP API: schemas, errors, OpenAPI, probes, metrics, pool summary', async () => {
  const bad = await post(server.base, '/api/games', { seats: [{ kind: 'person' }] });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'bad_request');
  assert.equal(
    (
      await post(server.base, '/api/games', {
        seats: [
          { kind: 'bot', level: 'random' },
          { kind: 'bot', level: 'random' },
        ],
      })
    ).status,
    400,
  );
  assert.equal((await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'godlike' }] })).status, 400);
  assert.equal((await get(server.base, '/api/games/nope')).body.code, 'unknown_game');
  const { id } = await createGame(server.base, [{ kind: 'person' }, { kind: 'person' }]);
  assert.equal((await post(server.base, `/api/games/${id}/seats`, { name: 'late' })).status, 409);
  assert.equal((await get(server.base, `/api/games/${id}/record`)).status, 409);
  const open = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }], listed: true });
  const invite = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] });
  const listed = await get(server.base, '/api/games');
  assert.ok(listed.body.games.some((g: any) => g.id === open.body.id));
  assert.ok(!listed.body.games.some((g: any) => g.id === invite.body.id), 'a game not created as listed is reached by its link only');
  const joined = await post(server.base, `/api/games/${open.body.id}/seats`, { name: 'ann' });
  assert.ok(Buffer.from(joined.body.token, 'base64url').length >= 16, 'token ≥ 128 bits');

  const openapi = await get(server.base, '/openapi.json');
  assert.equal(openapi.status, 200);
  for (const path of ['/api/games', '/api/games/{id}', '/api/games/{id}/seats', '/api/games/{id}/record', '/healthz', '/readyz', '/metrics', '/api/pool']) assert.ok(openapi.body.paths[path], path);
  const seats = openapi.body.paths['/api/games'].post.requestBody.content['application/json'].schema.properties.seats;
  assert.deepEqual([seats.minItems, seats.maxItems], [2, 6], 'the API documents 2 to 6 seats (the sixth with Inns & Cathedrals)');
  const rules = openapi.body.paths['/api/games'].post.requestBody.content['application/json'].schema.properties.rules.properties;
  assert.deepEqual(Object.keys(rules).sort(), ['abbot', 'farmers', 'innsCathedrals', 'river', 'tinyCity'], 'the rule options are documented');
  assert.equal((await get(server.base, '/healthz')).body.status, 'ok');
  assert.equal((await get(server.base, '/readyz')).status, 200);
  const metrics = await get(server.base, '/metrics');
  for (const name of [
    'tessera_pool_task_queue_wait_seconds',
    'tessera_pool_worker_spawn_cpu_seconds',
    'tessera_pool_respawns_total',
    'tessera_event_loop_delay_seconds',
    'tessera_event_loop_utilization',
    'tessera_shed_total',
    'tessera_bot_degraded_total',
    'tessera_bot_deadline_hits_total',
  ])
    assert.match(metrics.body, new RegExp(`^# TYPE ${name} `, 'm'));
  const pool = (await get(server.base, '/api/pool')).body;
  assert.equal(pool.ready, true);
  assert.equal(pool.workers.length, 1);
  assert.ok(pool.workers[0].spawnCpuMs > 0 && pool.workers[0].warmMs >= pool.workers[0].onlineMs);
  assert.equal(typeof pool.eventLoop.delayMs.p99, 'number');
  assert.equal(pool.sizing.reason, 'TESSERA_BOT_WORKERS setting');
});

/** Sends raw bytes, returns the status and the JSON body of the answer (the server closes after). */
function raw(bytes: string): Promise<{ status: number; body: any }> {
  const url = new URL(server.base);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);
      const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      try {
        resolve({ status, body: JSON.parse(body) });
      } catch {
        reject(new Error(`not JSON: ${JSON.stringify(answer)}`));
      }
    });
    socket.on('error', reject);
  });
}

test('requests the HTTP parser or the framework refuse get the same {statusCode, code, message} shape', async () => {
  const host = new URL(server.base).host;
  const cases: [string, string, number, string][] = [
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400, 'bad_request'],
    ['a bad chunked body', `POST /api/games HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 400, 'bad_request'],
    ['oversized headers', `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    [
      'a body over 16 KiB',
      `POST /api/games HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 20000\r\nConnection: close\r\n\r\n${'{'.padEnd(20_000, ' ')}`,
      413,
      'too_large',
    ],
    ['a body that is not JSON', `POST /api/games HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/xml\r\nContent-Length: 4\r\nConnection: close\r\n\r\n<a/>`, 415, 'unsupported_media_type'],
    ['broken JSON', `POST /api/games HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"a":`, 400, 'bad_request'],
    ['an unknown route', `GET /nope HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 404, 'not_found'],
  ];
  for (const [what, bytes, status, code] of cases) {
    const answer = await raw(bytes);
    assert.equal(answer.status, status, what);
    assert.deepEqual(Object.keys(answer.body).sort(), ['code', 'message', 'statusCode'], what);
    assert.equal(answer.body.statusCode, status, what);
    assert.equal(answer.body.code, code, what);
    assert.equal(typeof answer.body.message, 'string', what);
  }
});
