// A turn-based game played across a cluster (a private PostgreSQL and Redis, two instances in this
// process): two signed-in players, each with a device on the loopback push service
// (test/support/push-service.ts) and each going through their own instance, take turns; each
// turn's player is told exactly once, on their own device, whichever instance owns the game and
// whichever relays the mover: never twice, never once from each instance. Without Redis, the game
// rests between turns (no instance holds it) and each mover's own instance loads it: still once.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { WebSocket as WsSocket } from 'ws';
import { Client, type Running, startServer, WAIT } from './server-helpers.ts';
import { clusterTests } from './support/cluster.ts';
import { type PushService, startPushService } from './support/push-service.ts';

// The loopback push service's certificate is its own: the in-process instances' sender must accept it.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

const { test, services } = clusterTests();
const TURNS = 6;

interface Player {
  name: string;
  cookie: string;
  endpoint: string;
  via: Running;
}

async function signIn(via: Running, push: PushService, name: string): Promise<Player> {
  const started = await fetch(`${via.base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  assert.equal(started.status, 201);
  const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0];
  const device = push.subscribe();
  const subscription = { endpoint: device.endpoint, expirationTime: null, keys: device.keys };
  const added = await fetch(`${via.base}/api/me/devices`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ subscription, label: `${name}'s phone` }),
  });
  assert.equal(added.status, 201, await added.text());
  return { name, cookie, endpoint: device.endpoint, via };
}

/** The (game, turn) pairs told to a device, in the order they arrived (`kind`: of those messages). */
function toldTo(push: PushService, endpoint: string, kind = 'turn'): string[] {
  return push.received
    .filter((r) => r.endpoint === endpoint)
    .flatMap((r) => {
      const message = JSON.parse(r.text) as { kind: string; games: { gameId: string; turn: number }[] };
      assert.ok(['turn', 'challenge', 'reminder'].includes(message.kind), message.kind);
      return message.kind === kind ? message.games.map((g) => `${g.gameId}@${g.turn}`) : [];
    });
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The player opens the game through their own instance (by their session), plays a legal
 * placement and leaves; returns the turn they played and the turn after it. */
async function playOnce(player: Player, id: string, seat: number): Promise<{ played: number; next: number }> {
  const socket = new WsSocket(player.via.ws, { headers: { cookie: player.cookie } });
  await once(socket, 'open');
  const client = new Client(socket as never);
  try {
    await client.hello(id);
    assert.equal(client.welcome.seat, seat, `${player.name} is seated by their session`);
    const { view } = await client.latestState();
    assert.equal(view.currentSeat, seat, `${player.name}'s turn`);
    const p = view.legal[0];
    client.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
    const after = await client.latestState((f) => f.view.turn > view.turn && f.view.currentSeat !== seat, 10_000);
    return { played: view.turn, next: after.view.turn };
  } finally {
    client.close();
    if (!client.closed) await client.closedWith(5000).catch(() => {});
  }
}

/** Ann makes a turn-based game on `on` challenging Bea by name; each then takes her seat through
 * the instance `seatVia` names. The game's id. */
async function challengeGame(on: { base: string }, ann: Player, bea: Player, seatVia: (p: Player) => { base: string }): Promise<string> {
  const created = await fetch(`${on.base}/api/games`, {
    method: 'POST',
    headers: { cookie: ann.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ seats: [{ kind: 'person' }, { kind: 'person', player: bea.name }], pace: { kind: 'turnBased', moveDays: 1 } }),
  });
  const body = await created.text();
  assert.equal(created.status, 201, body);
  const id = (JSON.parse(body) as { id: string }).id;
  for (const [p, seat] of [
    [ann, 0],
    [bea, 1],
  ] as const) {
    const taken = await fetch(`${seatVia(p).base}/api/games/${id}/seats`, {
      method: 'POST',
      headers: { cookie: p.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: p.name, seat }),
    });
    assert.equal(taken.status, 201, await taken.text());
  }
  return id;
}

test('with Redis, a turn-based game across two instances: each turn is pushed once, to its player only, from one instance; the challenge once', { timeout: 90_000 }, async () => {
  const push = await startPushService();
  const databaseUrl = await services.postgres.database('turn_push');
  const [a, b] = await Promise.all(['push-a', 'push-b'].map((instanceId) => startServer({ databaseUrl, redisUrl: services.redis.url, instanceId, leaseSeconds: 2 })));
  try {
    const ann = await signIn(a, push, 'Cluster Push Ann');
    const bea = await signIn(b, push, 'Cluster Push Bea');
    // Each seat taken through the player's own instance (b's relayed to a, the owner).
    const id = await challengeGame(a, ann, bea, (p) => p.via);
    const owner = a.app.games.loaded(id) ? a : b;
    const room = owner.app.games.loaded(id);
    assert.ok(room, 'one instance holds the game');
    assert.equal((owner === a ? b : a).app.games.loaded(id), undefined, 'the other relays');

    const expected = new Map<Player, string[]>([
      [ann, []],
      [bea, []],
    ]);
    let turn = room.view(null).turn;
    for (let i = 0; i < TURNS; i++) {
      const seat = room.view(null).currentSeat as number;
      const mover = seat === 0 ? ann : bea;
      // Told of this turn before opening the game: the message is what brings them.
      expected.get(mover)?.push(`${id}@${turn}`);
      await until(`${mover.name} told of turn ${turn}`, () => toldTo(push, mover.endpoint).includes(`${id}@${turn}`));
      const { played, next } = await playOnce(mover, id, seat);
      assert.equal(played, turn);
      turn = next;
    }
    const last = room.view(null).currentSeat === 0 ? ann : bea;
    expected.get(last)?.push(`${id}@${turn}`);
    await until(`${last.name} told of turn ${turn}`, () => toldTo(push, last.endpoint).includes(`${id}@${turn}`));
    // Longer than the fold window (2 s): a second sender, had there been one, would have sent by now.
    await new Promise((r) => setTimeout(r, 3_000));
    for (const p of [ann, bea]) assert.deepEqual(toldTo(push, p.endpoint), expected.get(p), `${p.name}: each of their turns once, nobody else's`);
    // Bea was challenged by name into the game: told once, by the instance that made it.
    assert.deepEqual([toldTo(push, bea.endpoint, 'challenge'), toldTo(push, ann.endpoint, 'challenge')], [[`${id}@0`], []]);
    const told = TURNS + 1 + 1;
    assert.equal(push.received.length, told, 'one push per turn in all, and the challenge');
    assert.equal(a.app.push.counts.sent + b.app.push.counts.sent, told, 'sent once, by one instance or the other');
    assert.equal(a.app.push.counts.skippedClaimed + b.app.push.counts.skippedClaimed, 0);
  } finally {
    await Promise.all([a.app.close(), b.app.close()]);
    await push.close();
  }
});

test('without Redis, a turn-based game played by each player through their own instance: it rests between turns, the instance of the player to move loads it, each turn and the reminder are pushed once', {
  timeout: 90_000,
}, async (t) => {
  const push = await startPushService();
  const databaseUrl = await services.postgres.database('turn_push_rest');
  const [a, b] = await Promise.all(['rest-a', 'rest-b'].map((instanceId) => startServer({ databaseUrl, instanceId, leaseSeconds: 10 })));
  try {
    const ann = await signIn(a, push, 'Resting Push Ann');
    const bea = await signIn(b, push, 'Resting Push Bea');
    // No relay: both seats are taken where the game was created (a session is valid on any instance).
    const id = await challengeGame(a, ann, bea, () => a);
    const expected = new Map<Player, string[]>([
      [ann, []],
      [bea, []],
    ]);
    let turn = a.app.games.loaded(id)?.view(null).turn as number;
    let seat = 0;
    for (let i = 0; i < TURNS; i++) {
      // Nobody is looking: the game leaves memory everywhere, and its lease is given back.
      await t.waitFor(async () => {
        await Promise.all([a.app.games.sweepNow(), b.app.games.sweepNow()]);
        assert.ok(a.app.games.loaded(id) === undefined && b.app.games.loaded(id) === undefined, 'the resting game left memory');
      }, WAIT);
      const mover = seat === 0 ? ann : bea;
      expected.get(mover)?.push(`${id}@${turn}`);
      await until(`${mover.name} told of turn ${turn}`, () => toldTo(push, mover.endpoint).includes(`${id}@${turn}`));
      const { played, next } = await playOnce(mover, id, seat);
      assert.equal(played, turn);
      assert.ok(mover.via.app.games.loaded(id), `${mover.name}'s own instance loaded the game`);
      turn = next;
      seat = 1 - seat;
    }
    const last = seat === 0 ? ann : bea;
    expected.get(last)?.push(`${id}@${turn}`);
    await until(`${last.name} told of turn ${turn}`, () => toldTo(push, last.endpoint).includes(`${id}@${turn}`));
    // Its deadline near, both instances sweep at once, twice, neither holding the game: one reminder.
    const due = (await a.app.store.dueTurns(Number.MAX_SAFE_INTEGER, 10)).find((d) => d.id === id);
    assert.ok(due && due.turn === turn, 'the turn has its deadline stored');
    const deadline = due.deadline;
    for (let i = 0; i < 2; i++) await Promise.all([a.app.games.sweepDeadlines(deadline - 1), b.app.games.sweepDeadlines(deadline - 1)]);
    await until(`${last.name} reminded`, () => toldTo(push, last.endpoint, 'reminder').length > 0);
    // Longer than the fold window (2 s): a second sender, had there been one, would have sent by now.
    await new Promise((r) => setTimeout(r, 3_000));
    for (const p of [ann, bea]) assert.deepEqual(toldTo(push, p.endpoint), expected.get(p), `${p.name}: each of their turns once, nobody else's`);
    assert.deepEqual(toldTo(push, last.endpoint, 'reminder'), [`${id}@${turn}`]);
    // And Bea's challenge, once.
    const told = TURNS + 1 + 1 + 1;
    assert.equal(push.received.length, told, 'one push per turn in all, the reminder and the challenge');
    assert.equal(a.app.push.counts.sent + b.app.push.counts.sent, told, 'sent once, by one instance or the other');
    assert.equal(a.app.push.counts.skippedClaimed + b.app.push.counts.skippedClaimed, 0);
  } finally {
    await Promise.all([a.app.close(), b.app.close()]);
    await push.close();
  }
});
