// Web Push's routes through the real app (app.inject): the VAPID public key (made at first start,
// the same after a restart on the same data directory), a player's devices (subscribe, list,
// remove; schemas on every route, the session cookie and its Origin check), and the games that
// wait for the player.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { watchingHere } from '../server/plugins/push.ts';
import { newGame } from '../bot-engine/game.ts';
import { type DeadlineMarks, noMarks, type SeatHolder } from '../server/games/store.ts';
import { Client, injectServer, randomRecordMoves } from './server-helpers.ts';

let app: FastifyInstance;
before(async () => {
  app = (await injectServer({ createsPerMinute: 1000 })).app;
});
after(() => app.close());

const OWN = 'http://localhost:80';
const SUBSCRIPTION = {
  endpoint: 'https://push.example.net/wpush/v2/abc123',
  expirationTime: null,
  keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' },
};

function call(method: 'GET' | 'POST' | 'DELETE', url: string, c: { cookie?: string; origin?: string; body?: unknown } = {}, to = app): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (c.cookie) headers.cookie = c.cookie;
  if (c.origin) headers.origin = c.origin;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  return to.inject({ method, url, headers, ...(c.body === undefined ? {} : { payload: JSON.stringify(c.body) }) });
}

async function guest(name: string, to = app): Promise<{ cookie: string; id: string }> {
  const res = await call('POST', '/api/session', { body: { name } }, to);
  assert.equal(res.statusCode, 201, res.body);
  const set = res.cookies.find((c) => c.name === 'tessera_session');
  assert.ok(set);
  return { cookie: `tessera_session=${set.value}`, id: res.json().player.id };
}

test('the VAPID public key is made at first start and kept in the database: the same after a restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-vapid-'));
  const first = (await injectServer({ dataDir }, false)).app;
  const key = (await call('GET', '/api/push/key', {}, first)).json().publicKey;
  await first.close();
  const second = (await injectServer({ dataDir }, false)).app;
  assert.equal((await call('GET', '/api/push/key', {}, second)).json().publicKey, key);
  await second.close();
  const elsewhere = (await injectServer({ dataDir: mkdtempSync(join(tmpdir(), 'tessera-vapid-')) }, false)).app;
  assert.notEqual((await call('GET', '/api/push/key', {}, elsewhere)).json().publicKey, key, 'another database, another pair');
  await elsewhere.close();
  assert.match(key, /^[A-Za-z0-9_-]{87}$/);
});

test('a player subscribes a device, lists it and removes it; another player cannot see or remove it', async () => {
  const alice = await guest('Push Alice');
  const bob = await guest('Push Bob');
  const made = await call('POST', '/api/me/devices', { cookie: alice.cookie, origin: OWN, body: { subscription: SUBSCRIPTION, label: 'Firefox on Linux' } });
  assert.equal(made.statusCode, 201, made.body);
  const device = made.json();
  assert.match(device.id, /^d_[A-Za-z0-9_-]{16}$/);
  assert.deepEqual({ ...device, id: 'x', createdAt: 'x' }, { id: 'x', label: 'Firefox on Linux', createdAt: 'x', endpointOrigin: 'https://push.example.net' });
  assert.deepEqual((await call('GET', '/api/me/devices', { cookie: alice.cookie })).json(), { devices: [device] });
  assert.deepEqual((await call('GET', '/api/me/devices', { cookie: bob.cookie })).json(), { devices: [] });

  const theirs = await call('DELETE', `/api/me/devices/${device.id}`, { cookie: bob.cookie, origin: OWN });
  assert.equal(theirs.statusCode, 404);
  assert.equal(theirs.json().code, 'unknown_device');
  assert.equal((await call('GET', '/api/me/devices', { cookie: alice.cookie })).json().devices.length, 1, 'a refused removal changes nothing');

  const again = await call('POST', '/api/me/devices', { cookie: alice.cookie, origin: OWN, body: { subscription: SUBSCRIPTION } });
  assert.equal(again.json().id, device.id, 'the same browser subscribing again keeps its device');
  assert.equal(again.json().label, 'A device');

  assert.equal((await call('DELETE', `/api/me/devices/${device.id}`, { cookie: alice.cookie, origin: OWN })).statusCode, 204);
  assert.deepEqual((await call('GET', '/api/me/devices', { cookie: alice.cookie })).json(), { devices: [] });
  assert.equal((await call('DELETE', `/api/me/devices/${device.id}`, { cookie: alice.cookie, origin: OWN })).json().code, 'unknown_device');
});

test('bad subscriptions, no session and another site are refused, and change nothing', async () => {
  const p = await guest('Push Careful');
  const refusals: [unknown, string][] = [
    [{ subscription: { ...SUBSCRIPTION, endpoint: 'http://push.example.net/plain' } }, 'bad_request'],
    [{ subscription: { ...SUBSCRIPTION, keys: { p256dh: 'not base64url!', auth: 'x' } } }, 'bad_request'],
    [{ subscription: { endpoint: SUBSCRIPTION.endpoint } }, 'bad_request'],
    [{ subscription: SUBSCRIPTION, extra: 1 }, 'bad_request'],
    [{ subscription: { ...SUBSCRIPTION, endpoint: 'https://' } }, 'bad_request'],
  ];
  for (const [body, code] of refusals) {
    const res = await call('POST', '/api/me/devices', { cookie: p.cookie, origin: OWN, body });
    assert.equal(res.statusCode, 400, JSON.stringify(body));
    assert.equal(res.json().code, code);
  }
  const anonymous = await call('POST', '/api/me/devices', { origin: OWN, body: { subscription: SUBSCRIPTION } });
  assert.equal(anonymous.json().code, 'not_signed_in');
  assert.equal((await call('GET', '/api/me/devices')).json().code, 'not_signed_in');
  assert.equal((await call('GET', '/api/me/waiting')).json().code, 'not_signed_in');
  const crossSite = await call('POST', '/api/me/devices', { cookie: p.cookie, origin: 'https://evil.example', body: { subscription: SUBSCRIPTION } });
  assert.equal(crossSite.json().code, 'cross_origin');
  assert.deepEqual((await call('GET', '/api/me/devices', { cookie: p.cookie })).json(), { devices: [] });
});

test('the games waiting for a player: those where one of their seats is to move', async () => {
  const first = await guest('Waits First');
  const second = await guest('Waits Second');
  assert.deepEqual((await call('GET', '/api/me/waiting', { cookie: first.cookie })).json(), { count: 0, games: [] });
  const created = (await call('POST', '/api/games', { body: { seats: [{ kind: 'person' }, { kind: 'person' }] } })).json();
  assert.equal((await call('POST', `/api/games/${created.id}/seats`, { cookie: first.cookie, body: { name: 'x', seat: 0 } })).statusCode, 201);
  assert.equal((await call('GET', '/api/me/waiting', { cookie: first.cookie })).json().count, 0, 'a game still waiting for players waits for nobody');
  assert.equal((await call('POST', `/api/games/${created.id}/seats`, { cookie: second.cookie, body: { name: 'y', seat: 1 } })).statusCode, 201);
  const current = app.games.loaded(created.id)?.view(null).currentSeat;
  const [toMove, other] = current === 0 ? [first, second] : [second, first];
  assert.deepEqual((await call('GET', '/api/me/waiting', { cookie: toMove.cookie })).json(), { count: 1, games: [created.id] });
  assert.deepEqual((await call('GET', '/api/me/waiting', { cookie: other.cookie })).json(), { count: 0, games: [] });
});

test('the games waiting for a player are read from their listing, no game replayed: not one waiting for players, nor a seat dropped for missed turns', async (t) => {
  const me = await guest('Waits Listed');
  const other = { name: 'Someone Else', tokenHash: null, playerId: 'p_someoneElseAAAAAAAAAAA' };
  const mine = { name: 'Waits Listed', tokenHash: null, playerId: me.id };
  const stored = async (id: string, holders: (SeatHolder | null)[], marks?: DeadlineMarks) => {
    const seed = `waiting-${id}`;
    await app.store.create(
      {
        id,
        createdAt: new Date().toISOString(),
        seed,
        rules: { tinyCity: false, farmers: '3rd' },
        seats: [{ kind: 'person' }, { kind: 'person' }],
        clock: { turnSeconds: null, graceSeconds: 60 },
        standIn: 'heuristic',
        pace: { kind: 'turnBased', moveDays: 1 },
      },
      holders,
    );
    // One placement: seat 1 is to move.
    if (!holders.includes(null)) await app.store.appendMoves(id, randomRecordMoves(newGame({ players: 2, seed }), 1, 1), null);
    if (marks) await app.store.update(id, { name: 'test', apply: () => ({ marks }) });
  };
  await stored('w_mine', [other, mine]);
  await stored('w_theirs', [mine, other]);
  await stored('w_dropped', [other, mine], { ...noMarks(2), missed: [0, 3], missedTurn: 1, droppedAt: [null, Date.now()] });
  await stored('w_open', [mine, null]);
  const replays = t.mock.method(app.games, 'snapshot');
  assert.deepEqual((await call('GET', '/api/me/waiting', { cookie: me.cookie })).json(), { count: 1, games: ['w_mine'] });
  assert.equal(replays.mock.callCount(), 0, 'no game replayed');
  assert.deepEqual(
    ['w_mine', 'w_theirs', 'w_dropped', 'w_open'].map((id) => app.games.loaded(id)),
    [undefined, undefined, undefined, undefined],
    'none loaded',
  );
});

test('the OpenAPI document describes every push route', async () => {
  const { paths } = (await call('GET', '/openapi.json')).json();
  const routes = { '/api/push/key': ['get'], '/api/me/devices': ['get', 'post'], '/api/me/devices/{id}': ['delete'], '/api/me/waiting': ['get'] };
  for (const [path, methods] of Object.entries(routes)) for (const method of methods) assert.deepEqual(paths[path]?.[method]?.tags, ['push'], `${method} ${path}`);
});

test('a player is watching a game while a connection here plays their seat, and not once it closes', async () => {
  const p = await guest('Push Watcher');
  const created = (await call('POST', '/api/games', { body: { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] } })).json();
  const seat = await call('POST', `/api/games/${created.id}/seats`, { cookie: p.cookie, body: { name: 'x' } });
  assert.equal(seat.statusCode, 201);
  const watching = watchingHere(app.games);
  assert.equal(watching(p.id, created.id), false, 'seated, not connected');
  const client = await Client.join(app, created.id, seat.json().token);
  assert.equal(watching(p.id, created.id), true);
  assert.equal(watching('p_someoneElseAAAAAAAAAAA', created.id), false);
  assert.equal(watching(p.id, 'no-such-game'), false);
  // The app's own notifications ask the same: a turn in the game watched is not pushed, and counted.
  await app.push.yourTurn({ playerId: p.id, gameId: created.id, turn: 1, deadline: null });
  assert.match((await call('GET', '/metrics')).body, /^tessera_push_total\{outcome="watching"\} 1$/m);
  client.close();
  for (let i = 0; i < 100 && watching(p.id, created.id); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(watching(p.id, created.id), false, 'gone');
});
