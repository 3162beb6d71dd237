// Several instances on one PostgreSQL (a private one started here): a game whose owner is
// SIGKILLed mid-game is taken over by another instance from its record, with every acknowledged
// move kept, its bot moving again and its player reconnecting with the same seat token; a
// stale owner (paused past its lease) is fenced off and lets go; the lobby lists every instance;
// with a private Redis, two players each connected to a different instance play one game.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { WebSocket as WsSocket } from 'ws';
import pg from 'pg';
import type { ClusterDirectory } from '../server/cluster/directory.ts';
import { PostgresStore } from '../server/storage/postgres/games.ts';
import { takeSeat } from '../server/games/store-operations.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { OwnershipLostError, type StoredGame } from '../server/games/store.ts';
import { Client, createGame, get, playUntilOver, post, type Running, startServer, twoPeopleSetup, WAIT } from './server-helpers.ts';
import { clusterTests, type Instance, playTurns } from './support/cluster.ts';
import { player } from './support/passkey-player.ts';

const { test, services, startInstance } = clusterTests();
const LEASE_SECONDS = 2;
/** In-process instances whose test waits on no lease running out: a longer lease, whose session
 * limits (half a lease idle in a transaction) a starved event loop on a loaded machine does not hit. */
const IN_PROCESS_LEASE_SECONDS = 10;

async function cluster(n: number, env: Record<string, string> = {}): Promise<Instance[]> {
  const url = await services.postgres.database('cluster');
  const started = await Promise.all(
    Array.from({ length: n }, (_, i) => startInstance(`node-${String.fromCharCode(97 + i)}`, { TESSERA_DATABASE_URL: url, TESSERA_LEASE_SECONDS: String(LEASE_SECONDS), ...env })),
  );
  return started;
}

/** Joins through `instance`, retrying while the game is elsewhere (a takeover under way). */
async function joinWhenServed(instance: { ws: string }, id: string, token: string, ms: number): Promise<{ client: Client; tries: number }> {
  const until = Date.now() + ms;
  for (let tries = 1; ; tries++) {
    try {
      return { client: await Client.join(instance.ws, id, token), tries };
    } catch (e) {
      if (!/game_elsewhere/.test((e as Error).message) || Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

test('SIGKILL of the owning instance mid-game: another takes the game over from PostgreSQL, no acknowledged move lost, the bot moves and the game finishes', { timeout: 90_000 }, async () => {
  const [a, b] = await cluster(2);
  const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  // Any instance answers for the game (its record); the owner plays it.
  assert.deepEqual((await get(b.base, `/api/games/${id}`)).body.status, 'playing');
  assert.equal((await get(b.base, `/api/games/${id}/record`)).body.code, 'not_finished');
  const first = await Client.join(a.ws, id, tokens.get(0));
  const acknowledged = await playTurns(first, 5);
  assert.ok(acknowledged.size >= 5);

  const killedAt = Date.now();
  await a.kill('SIGKILL');
  const { client: again, tries } = await joinWhenServed(b, id, tokens.get(0)!, (LEASE_SECONDS + 6) * 1000);
  const takeoverMs = Date.now() - killedAt;
  // The lease runs out at most LEASE_SECONDS after the kill; the takeover must follow within 5 s.
  assert.ok(takeoverMs <= (LEASE_SECONDS + 5) * 1000, `taken over ${takeoverMs} ms after the kill`);
  assert.ok(tries > 1, 'the game was refused while its lease ran');
  const history = new Map(again.welcome.history.map((m: any) => [m.turn, m.move]));
  for (const [turn, move] of acknowledged) assert.deepEqual(history.get(turn), move, `acknowledged move ${turn} kept`);
  const done = await playUntilOver(new Map([[0, again]]), 60_000).catch(async (e) => {
    throw new Error(`${e.message}\n${JSON.stringify((await get(b.base, `/api/games/${id}`)).body)}\n${b.log().slice(-10).join('\n')}`);
  });
  assert.equal(done.status, 'finished');
  const record = await get(b.base, `/api/games/${id}/record`);
  assert.equal(record.status, 200);
  assert.equal(record.body.final, true);
  again.close();
  process.stdout.write(`# takeover ${takeoverMs} ms after SIGKILL (lease ${LEASE_SECONDS} s)\n`);
  await b.kill('SIGKILL');
});

test('a stale owner is fenced off: paused past its lease, its game is taken over; resumed, it lets go and its player is sent to reconnect', { timeout: 60_000 }, async (t) => {
  const [a, b] = await cluster(2);
  // Created on b, listed: the lobby of a shows it too.
  const created = await post(b.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }], listed: true });
  const id = created.body.id;
  assert.deepEqual(
    (await get(a.base, '/api/games')).body.games.map((g: any) => g.id),
    [id],
  );
  const seat = await post(b.base, `/api/games/${id}/seats`, { name: 'Ann' });
  assert.equal(seat.status, 201);
  const player = await Client.join(b.ws, id, seat.body.token);
  await playTurns(player, 2);

  await b.kill('SIGSTOP');
  const { client: moved } = await joinWhenServed(a, id, seat.body.token, (LEASE_SECONDS + 6) * 1000);
  // Peeked, not taken: when it is Ann's turn, this frame is the one playTurns moves on.
  const turn = (await moved.peekState()).view.turn;
  await b.kill('SIGCONT');
  // b's next renewal (or write) finds the game owned by a at a newer epoch: it drops it.
  const closed = await player.closedWith(LEASE_SECONDS * 1000 + 3000);
  assert.equal(closed.code, 1012);
  // pino writes asynchronously (sonic-boom): the line may reach the file just after the close frame.
  await t.waitFor(() => assert.ok(b.log().some((l) => l.includes('game lost to another instance'))), WAIT);
  await playTurns(moved, 1);
  assert.ok((await moved.latestState()).view.turn > turn);
  moved.close();
});

test('with Redis, a relaying instance that is SIGKILLed: the owner sees its player gone (the relay subscription died)', { timeout: 60_000 }, async () => {
  const [a, b] = await cluster(2, { TESSERA_REDIS_URL: services.redis.url });
  const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const player = await Client.join(b.ws, id, tokens.get(0));
  const connected = async () => (await get(a.base, `/api/games/${id}`)).body.seats[0].connected;
  assert.equal(await connected(), true, 'relayed through b, present on a');
  await b.kill('SIGKILL');
  let gone = false;
  for (let i = 0; i < 40 && !gone; i++) {
    await new Promise((r) => setTimeout(r, 100));
    gone = !(await connected());
  }
  assert.ok(gone, 'the owner let the dead edge’s connection go');
  player.close();
  await a.kill('SIGKILL');
});

const setup = twoPeopleSetup('f');
const move = (n: number) => ({ tile: 'V', x: n, y: 1, rotation: 0, meeple: null });

test('postgres store: a stale owner’s write is refused in its own transaction and changes nothing', async (t) => {
  const url = await services.postgres.database('fence');
  // Long enough that the first steps run inside it on a busy machine (200 ms was not, once).
  const x = await PostgresStore.connect({ url, instance: 'x', leaseMs: 3000 });
  const y = await PostgresStore.connect({ url, instance: 'y', leaseMs: 3000 });
  await x.create(setup, [null, null]);
  await x.appendMoves('f', [move(1)], null);
  assert.deepEqual(await y.claimExpired(10), [], 'a live lease is not taken');
  await assert.rejects(() => y.appendMoves('f', [move(9)], null), OwnershipLostError);
  // Leases run on PostgreSQL's clock: wait until the database says x's has run out.
  await t.waitFor(async () => assert.equal((await y.owners(['f'])).get('f')?.live, false), WAIT);
  const [taken] = await y.claimExpired(10);
  assert.equal((taken as StoredGame).setup.id, 'f');
  await assert.rejects(() => x.appendMoves('f', [move(2)], null), OwnershipLostError);
  await assert.rejects(() => takeSeat(x, 'f', 0, { name: 'late', tokenHash: null }), OwnershipLostError);
  await y.appendMoves('f', [move(2)], null);
  assert.deepEqual((await y.get('f'))!.moves, [move(1), move(2)]);
  assert.deepEqual((await y.get('f'))!.holders, [null, null]);
  assert.deepEqual(await x.renew(), [], 'the fenced write already let the game go');
  assert.deepEqual(x.owned, []);
  assert.deepEqual(y.owned, ['f']);
  await Promise.all([x.close(), y.close()]);
});

/** Instances in this process (their code is covered and their state inspectable), sharing one
 * fresh database. */
async function inProcess(names: string[], redisUrl: string | null, leaseSeconds = IN_PROCESS_LEASE_SECONDS): Promise<Running[] & { databaseUrl: string }> {
  const databaseUrl = await services.postgres.database('inproc');
  const running = await Promise.all(names.map((instanceId) => startServer({ databaseUrl, redisUrl, instanceId, leaseSeconds })));
  return Object.assign(running, { databaseUrl });
}

test('with Redis, any instance serves any game: two people, each connected to a different instance, play one game to the end', { timeout: 60_000 }, async () => {
  const [a, b] = await inProcess(['relay-a', 'relay-b'], services.redis.url);
  try {
    const created = await post(a.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], clock: { turnSeconds: null } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    // Seats taken through both instances: b relays its seat request to a, the owner.
    const ann = await post(a.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 });
    const bea = await post(b.base, `/api/games/${id}/seats`, { name: 'Bea', seat: 1 });
    assert.deepEqual([ann.status, bea.status], [201, 201], JSON.stringify(bea.body));
    assert.equal((await post(b.base, `/api/games/${id}/seats`, { name: 'Cy' })).body.code, 'no_seat', 'the owner answers, through b');
    const onA = await Client.join(a.ws, id, ann.body.token);
    const onB = await Client.join(b.ws, id, bea.body.token);
    assert.equal(onB.welcome.seat, 1);
    assert.equal(await b.app.games.get(id).catch((e: Error) => e.name), 'GameElsewhereError', 'b relays; a plays');
    assert.match((await get(b.base, '/metrics')).body, /tessera_cluster_relayed_connections 1\b/);
    const done = await playUntilOver(
      new Map([
        [0, onA],
        [1, onB],
      ]),
      45_000,
    );
    assert.equal(done.status, 'finished');
    // A bad frame sent through the relay is answered by the owner's validation, as on one instance.
    onB.send({ type: 'move', turn: 'x' });
    assert.equal((await onB.next((f) => f.type === 'error')).code, 'bad_frame');
    // Both ask for a rematch at once, each through their own instance: one rematch, both seated.
    const [again0, again1] = await Promise.all([post(a.base, `/api/games/${id}/rematch`, { token: ann.body.token }), post(b.base, `/api/games/${id}/rematch`, { token: bea.body.token })]);
    assert.deepEqual([again0.status, again1.status], [201, 201], JSON.stringify([again0.body, again1.body]));
    assert.equal(again0.body.gameId, again1.body.gameId);
    assert.deepEqual([again0.body.seat, again1.body.seat], [0, 1]);
    const rematch = await Client.join(b.ws, again1.body.gameId, again1.body.token);
    assert.equal((await rematch.latestState((f) => f.view.status === 'playing')).view.seats[1].name, 'Bea');
    rematch.close();
    onA.close();
    onB.close();
  } finally {
    await Promise.all([a.app.close(), b.app.close()]);
  }
});

test('with Redis, a signed-in player is the same player on every instance: a seat taken through one, played by the cookie alone through the other', { timeout: 60_000 }, async () => {
  const [a, b] = await inProcess(['player-a', 'player-b'], services.redis.url);
  try {
    const started = await fetch(`${b.base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Cluster Carol' }) });
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0];
    const { player: me } = (await (await fetch(`${a.base}/api/session`, { headers: { cookie } })).json()) as { player: { id: string; name: string } };
    assert.equal(me.name, 'Cluster Carol', 'the session is in the shared database');
    const created = await post(a.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], clock: { turnSeconds: null } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id;
    // Through b, relayed to a (the owner): the seat is stored with the player's id.
    const seat = await fetch(`${b.base}/api/games/${id}/seats`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'ignored', seat: 1 }) });
    assert.equal(seat.status, 201);
    const holder = (await a.app.store.get(id))?.holders[1];
    assert.deepEqual([holder?.name, holder?.playerId], ['Cluster Carol', me.id]);
    const socket = new WsSocket(b.ws, { headers: { cookie } });
    await once(socket, 'open');
    const byCookie = new Client(socket as never);
    await byCookie.hello(id);
    assert.equal(byCookie.welcome.seat, 1, 'b relays the hello with the player; a seats it');
    const games = (await (await fetch(`${a.base}/api/me/games`, { headers: { cookie } })).json()) as { games: { id: string; mySeats: number[] }[] };
    assert.deepEqual(
      games.games.map((g) => [g.id, g.mySeats]),
      [[id, [1]]],
    );
    byCookie.close();
  } finally {
    await Promise.all([a.app.close(), b.app.close()]);
  }
});

test('with Redis, a rated game across instances: each player seated and playing through their own instance, ratings moved once, read the same on both', { timeout: 60_000 }, async () => {
  const [a, b] = await inProcess(['rated-a', 'rated-b'], services.redis.url);
  try {
    // Rated games between people seat players with a passkey, each registered on their instance.
    const ann = await player(a.base, 'Rated Cluster Ann');
    const bea = await player(b.base, 'Rated Cluster Bea');
    const created = await post(a.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }], clock: { turnSeconds: null }, rated: true });
    const id = created.body.id;
    const take = async (base: string, cookie: string, seat: number) => {
      const res = await fetch(`${base}/api/games/${id}/seats`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', seat }) });
      assert.equal(res.status, 201);
      return ((await res.json()) as { token: string }).token;
    };
    const onA = await Client.join(a.ws, id, await take(a.base, ann.cookie, 0));
    const onB = await Client.join(b.ws, id, await take(b.base, bea.cookie, 1)); // relayed to a, the owner
    const done = await playUntilOver(
      new Map([
        [0, onA],
        [1, onB],
      ]),
      45_000,
    );
    assert.equal(done.rated, true);
    onA.close();
    onB.close();
    const ids = [ann.id, bea.id, 'bot:random'];
    const onEach = await Promise.all([a, b].map(async (i) => (await get(i.base, `/api/ratings?players=${ids.join(',')}`)).body.ratings));
    assert.deepEqual(onEach[0], onEach[1], 'one database: both instances show the same ratings');
    assert.deepEqual(
      onEach[0].map((r: { playerId: string; games: number }) => [r.playerId, r.games]),
      ids.map((p) => [p, 1]),
    );
    const history = (await get(b.base, `/api/players/${bea.id}/ratings`)).body.changes;
    assert.deepEqual(
      history.map((c: { gameId: string }) => c.gameId),
      [id],
    );
  } finally {
    await Promise.all([a.app.close(), b.app.close()]);
  }
});

test('a clean shutdown hands its games over at once: the lease is ended, not waited out; a relayed player is sent to reconnect', { timeout: 60_000 }, async () => {
  const [a, b, c] = await inProcess(['calm-a', 'calm-b', 'calm-c'], services.redis.url);
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    // The player is on c, relayed to a.
    const player = await Client.join(c.ws, id, tokens.get(0));
    const acknowledged = await playTurns(player, 2);
    const stoppedAt = Date.now();
    await a.app.close();
    assert.equal((await player.closedWith(3000)).code, 1012);
    const { client: again } = await joinWhenServed(c, id, tokens.get(0)!, 5000);
    const handoverMs = Date.now() - stoppedAt;
    assert.ok(handoverMs < IN_PROCESS_LEASE_SECONDS * 1000, `handed over in ${handoverMs} ms, not after the lease ran out`);
    const history = new Map(again.welcome.history.map((m: any) => [m.turn, m.move]));
    for (const [turn, move] of acknowledged) assert.deepEqual(history.get(turn), move);
    await playTurns(again, 1);
    again.close();
  } finally {
    await Promise.all([b.app.close(), c.app.close()]);
  }
});

test('an owner that missed its renewals loses its game: the taker plays it, the old owner lets go, its sockets and the relayed ones reconnect', { timeout: 60_000 }, async () => {
  // Long leases: the test decides when a lease runs out and when each instance scans or renews.
  const instances = await inProcess(['slow-a', 'slow-b', 'slow-c'], services.redis.url, 30);
  const [a, b, c] = instances;
  const db = new pg.Client({ connectionString: instances.databaseUrl });
  await db.connect();
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const player = await Client.join(a.ws, id, tokens.get(0));
    const watcher = await Client.join(c.ws, id);
    const open = (await post(a.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }] })).body.id;
    await playTurns(player, 1);
    // a misses its renewals (a long pause): its leases run out, and another instance takes the
    // games (b, asked now, unless c's own scan came first).
    await db.query("UPDATE games SET lease_until = now() - interval '1 second' WHERE id = ANY($1)", [[id, open]]);
    await (b.app.directory as ClusterDirectory).leases.scan();
    let owner = '';
    for (let i = 0; i < 30 && !['slow-b', 'slow-c'].includes(owner); i++) {
      owner = (await db.query('SELECT owner FROM games WHERE id = $1', [id])).rows[0].owner;
      if (owner === 'slow-a') await new Promise((r) => setTimeout(r, 100));
    }
    // a, still holding the waiting game in memory, is fenced off writing a seat into it: it lets
    // the game go and the request is relayed to the new owner, which takes the seat.
    assert.equal((await post(a.base, `/api/games/${open}/seats`, { name: 'Di' })).status, 201);
    const stored = (await db.query('SELECT owner, holders FROM games WHERE id = $1', [open])).rows[0];
    assert.deepEqual([stored.owner === 'slow-a', stored.holders[0].name], [false, 'Di']);
    // a comes back: its renewal finds the game taken at a newer epoch and drops it.
    await (a.app.directory as ClusterDirectory).leases.renew();
    assert.equal((await player.closedWith(2000)).code, 1012);
    assert.equal((await watcher.closedWith(3000)).code, 1012, 'the relay noticed the owner changed');
    assert.ok(
      watcher.frames.some((f) => f.type === 'bye' && f.reason === 'game moved to another instance: reconnect'),
      'the relay said why before it closed',
    );
    // Reconnecting to a is relayed to b, which plays the game now; its bot answers there.
    const again = await Client.join(a.ws, id, tokens.get(0));
    const turn = again.welcome.history.length;
    await playTurns(again, 1);
    assert.ok((await again.latestState()).view.turn > turn);
    const { rows } = await db.query('SELECT owner, owner_epoch FROM games WHERE id = $1', [id]);
    assert.deepEqual([rows[0].owner, Number(rows[0].owner_epoch)], [owner, 2]);
    const metric = async (base: string, name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec((await get(base, '/metrics')).body)?.[1]);
    assert.equal(await metric(a.base, 'tessera_cluster_games_lost_total'), 2);
    assert.equal((await metric(b.base, 'tessera_cluster_takeovers_total')) + (await metric(c.base, 'tessera_cluster_takeovers_total')), 2);
    again.close();
  } finally {
    await db.end();
    await Promise.all(instances.map((r) => r.app.close()));
  }
});

test('an instance in a crash loop still ends its expired games: restarted under its own id, it sweeps the games it takes back at boot', { timeout: 60_000 }, async () => {
  // Shortest expiry 120 s: the periodic sweep runs every 30 s, far longer than this instance is up.
  const expiry = { expireOpenSeatSeconds: 120, expireAwaySeconds: 3600, expireIdleSeconds: 3600 };
  const databaseUrl = await services.postgres.database('boot_sweep');
  let a = await startServer({ databaseUrl, instanceId: 'sweep-a', leaseSeconds: 30, ...expiry });
  const id = (await post(a.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }] })).body.id;
  await a.app.close();
  // Left waiting since long before this boot (earlier runs of the loop never lived to sweep).
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query('UPDATE games SET last_activity_at = $1, last_person_at = $1 WHERE id = $2', [Date.now() - 600_000, id]);
  await db.end();
  const bootedAt = Date.now();
  a = await startServer({ databaseUrl, instanceId: 'sweep-a', leaseSeconds: 30, ...expiry }, false);
  try {
    let status = '';
    while (status !== 'finished' && Date.now() - bootedAt < 10_000) {
      status = (await get(a.base, `/api/games/${id}`)).body.status;
      if (status !== 'finished') await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 'finished', 'ended within 10 s of the boot, well before the first periodic sweep');
    assert.match((await get(a.base, '/metrics')).body, /tessera_games_abandoned_total\{why="open_seat"\} 1/);
  } finally {
    await a.app.close();
  }
});

test('configuration: PostgreSQL and Redis URLs are checked; without them nothing changes', () => {
  assert.deepEqual([loadConfig({}).databaseUrl, loadConfig({}).redisUrl], [null, null]);
  const on = loadConfig({ TESSERA_DATABASE_URL: 'postgres://u:p@db:5432/t', TESSERA_REDIS_URL: 'redis://r:6379', TESSERA_LEASE_SECONDS: '4', TESSERA_INSTANCE_ID: 'x' });
  assert.deepEqual([on.databaseUrl, on.redisUrl, on.leaseSeconds, on.instanceId], ['postgres://u:p@db:5432/t', 'redis://r:6379', 4, 'x']);
  assert.throws(() => loadConfig({ TESSERA_DATABASE_URL: 'mysql://db/t' }), ConfigError);
  assert.throws(() => loadConfig({ TESSERA_REDIS_URL: 'redis://r:6379' }), /needs TESSERA_DATABASE_URL/);
  assert.throws(() => loadConfig({ TESSERA_DATABASE_URL: 'postgres://db/t', TESSERA_REDIS_URL: 'http://r' }), ConfigError);
  assert.throws(() => loadConfig({ TESSERA_LEASE_SECONDS: '0' }), ConfigError);
});

test('postgres store: a write whose commit went unconfirmed is not stored twice on retry, and a different move after it is refused', async () => {
  const url = await services.postgres.database('unconfirmed');
  const x = await PostgresStore.connect({ url, instance: 'x' });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  /** What a COMMIT whose answer was lost leaves: the move is stored, the writer does not know. */
  const landedUnseen = async (seq: number, m: unknown) => {
    await db.query('INSERT INTO moves (game_id, seq, move) VALUES ($1, $2, $3)', ['f', seq, JSON.stringify(m)]);
    await db.query('UPDATE games SET move_count = move_count + 1 WHERE id = $1', ['f']);
  };
  try {
    await x.create(setup, [null, null]);
    await x.appendMoves('f', [move(1)], null);
    await landedUnseen(1, move(2));
    await x.appendMoves('f', [move(2)], null); // the retry of that same write
    assert.deepEqual((await x.get('f'))!.moves, [move(1), move(2)]);
    await x.appendMoves('f', [move(3)], null);
    await landedUnseen(3, move(4));
    await assert.rejects(() => x.appendMoves('f', [move(5)], null), OwnershipLostError);
    assert.deepEqual((await x.get('f'))!.moves, [move(1), move(2), move(3), move(4)]);
    assert.deepEqual(x.owned, [], 'the game is let go, to be reloaded from its record');
  } finally {
    await db.end();
    await x.close();
  }
});
