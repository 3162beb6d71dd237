// The two halves of turn-based play joined in the real app: a turn-based game's turn passing to a
// signed-in player reaches `app.push` (GameService.hearTurns), which sends it to the player's
// device on a push service on loopback (test/support/push-service.ts decrypts it as RFC 8291
// says); the other player's device hears nothing, and a move passes the turn and the message.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type BrowserSubscription, type PushService, startPushService } from './support/push-service.ts';
import { injectServer, WAIT } from './server-helpers.ts';
import { foldPush } from '../client/src/push-fold.ts';

// The loopback push service's certificate is its own: the server's sender must accept it here.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

const OWN = 'http://localhost:80';
let service: PushService;
let app: FastifyInstance;
before(async () => {
  service = await startPushService();
  app = (await injectServer({ createsPerMinute: 1000 })).app;
});
after(async () => {
  await app?.close();
  await service?.close();
});

function call(method: 'GET' | 'POST', url: string, cookie: string, body?: unknown): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { cookie, origin: OWN };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
}

/** A guest player with one device subscribed on the loopback push service. */
async function playerWithDevice(name: string): Promise<{ name: string; cookie: string; id: string; device: BrowserSubscription }> {
  const res = await app.inject({ method: 'POST', url: '/api/session', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name }) });
  assert.equal(res.statusCode, 201, res.body);
  const cookie = `tessera_session=${res.cookies.find((c) => c.name === 'tessera_session')?.value}`;
  const device = service.subscribe();
  const subscription = { endpoint: device.endpoint, expirationTime: null, keys: device.keys };
  assert.equal((await call('POST', '/api/me/devices', cookie, { subscription, label: `${name}'s phone` })).statusCode, 201);
  return { name, cookie, id: res.json().player.id, device };
}

const messagesTo = (endpoint: string, kind = 'turn') =>
  service.received
    .filter((r) => r.endpoint === endpoint)
    .map((r) => JSON.parse(r.text))
    .filter((m) => m.kind === kind);

test('a turn-based game tells the player whose turn it is on their device, and only them; a move passes it on', { timeout: 60_000 }, async (t) => {
  const ann = await playerWithDevice('Pushed Ann');
  const ben = await playerWithDevice('Pushed Ben');
  const created = await call('POST', '/api/games', ann.cookie, { seats: [{ kind: 'person' }, { kind: 'person', player: ben.name }], pace: { kind: 'turnBased', moveDays: 1 } });
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().id;
  for (const [p, seat] of [
    [ann, 0],
    [ben, 1],
  ] as const)
    assert.equal((await call('POST', `/api/games/${id}/seats`, p.cookie, { name: p.name, seat })).statusCode, 201);

  const room = app.games.loaded(id);
  assert.ok(room);
  const first = room.view(null).currentSeat === 0 ? ann : ben;
  const second = first === ann ? ben : ann;
  const told = await t.waitFor(() => messagesTo(first.device.endpoint)[0] ?? assert.fail('the first player is not told yet'), WAIT);
  assert.equal(told.kind, 'turn');
  assert.deepEqual(
    told.games.map((g: { gameId: string }) => g.gameId),
    [id],
  );
  assert.deepEqual(messagesTo(second.device.endpoint), [], 'not their turn: nothing sent');

  // The first player moves (by the rules: a legal placement of the view's): the turn, and the message, pass on.
  const seat = room.view(null).currentSeat as number;
  const view = room.view(seat);
  const p = (view.legal ?? [])[0];
  const moved = await room.play(seat, { x: p.x, y: p.y, rotation: p.rotation, meeple: null }, view.turn);
  assert.ok(!('error' in moved), JSON.stringify(moved));
  const next = await t.waitFor(() => messagesTo(second.device.endpoint)[0] ?? assert.fail('the second player is not told yet'), WAIT);
  assert.deepEqual(
    next.games.map((g: { gameId: string }) => g.gameId),
    [id],
  );
  assert.equal(messagesTo(first.device.endpoint).length, 1, 'the first player is told once');
});

test('a player challenged by name is told on their device, once, who challenged them, and the push opens the game', { timeout: 60_000 }, async (t) => {
  const cleo = await playerWithDevice('Challenging Cleo');
  const dan = await playerWithDevice('Challenged Dan');
  const made = Date.now();
  const created = await call('POST', '/api/games', cleo.cookie, {
    // Cleo keeps a seat for herself too: she made the game, nobody challenged her.
    seats: [
      { kind: 'person', player: cleo.name },
      { kind: 'person', player: dan.name },
    ],
    pace: { kind: 'turnBased', moveDays: 3 },
  });
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().id;
  const told = await t.waitFor(() => messagesTo(dan.device.endpoint, 'challenge')[0] ?? assert.fail('the challenged player is not told yet'), WAIT);
  assert.equal(told.by, cleo.name);
  assert.equal(told.games.length, 1);
  const [game] = told.games;
  assert.deepEqual([game.gameId, game.turn, game.url], [id, 0, `/#/g/${id}`]);
  assert.ok(Math.abs(game.deadline - (made + 14 * 86_400_000)) < 60_000, 'the kept seat of a turn-based game waits 14 days');
  // Told again (another instance, a retry): the claim lets it go out once.
  await app.push.challenged({ playerId: dan.id, gameId: id, by: cleo.name, until: game.deadline });
  assert.equal(messagesTo(dan.device.endpoint, 'challenge').length, 1, 'once');
  assert.deepEqual(messagesTo(cleo.device.endpoint, 'challenge'), [], 'the maker is not told of a seat kept for themselves');
  // The challenged player's device shows it as a challenge (client/src/push-fold.ts, the service worker's words).
  assert.deepEqual(foldPush(told, [], Date.now()), {
    title: 'Challenging Cleo challenges you',
    body: 'A seat is kept for you: open the game to take it.',
    tag: `tessera-challenge-${id}`,
    url: `/#/g/${id}`,
    games: told.games,
  });
});
