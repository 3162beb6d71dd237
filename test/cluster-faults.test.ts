// Faults across instances that must not stall a game silently: an owner frozen inside a
// transaction (its row locks freed by the session limits, its games taken over, reads and hellos
// elsewhere answered meanwhile); Redis frozen under relayed players (closed with 4000, they come
// back and play); an instance restarted under its own id (its games are its own again at once,
// and the sockets relayed to it are sent to reconnect);
// PostgreSQL stopped (players are told the database cannot be reached, not "disk").

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Client, createGame, get, post, startServer, twoPeopleSetup } from './server-helpers.ts';
import { startPostgres } from '../support/postgres.ts';
import { freePort } from '../support/server.ts';
import { clusterTests, playTurns } from './support/cluster.ts';
import { HAPROXY, skipReason } from './support/needs.ts';
import { randomMove } from '../support/game-client.ts';
import { rng } from '../support/random.ts';
import { PROTOCOL_VERSION } from '../server/ws/protocol.ts';
import { CLOSE } from '../server/wire/close.ts';
import { PostgresStore } from '../server/storage/postgres/games.ts';

const { test, services, startInstance } = clusterTests();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 20 ms until it returns a value, or fails after `ms`. */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined | null | false>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

/** Joins through `ws`, retrying while the game is elsewhere (a takeover or an outage under way);
 * each refused socket is closed (an address may hold only so many). */
async function joinWhenServed(ws: string, id: string, token: string, ms: number): Promise<{ client: Client; tries: number }> {
  const end = Date.now() + ms;
  for (let tries = 1; ; tries++) {
    const c = await Client.connect(ws);
    c.send({ type: 'hello', v: PROTOCOL_VERSION, gameId: id, token });
    c.welcome = await c.next((f) => f.type === 'welcome' || f.type === 'error', 10_000);
    if (c.welcome.type === 'welcome') return { client: c, tries };
    c.close();
    if (c.welcome.code !== 'game_elsewhere' || Date.now() > end) throw new Error(`hello refused: ${c.welcome.code}: ${c.welcome.message}`);
    await sleep(100);
  }
}

/** A GET that must answer within `ms` (an aborted fetch fails the test). */
async function getWithin(url: string, ms: number): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const r = await fetch(url, { signal: AbortSignal.timeout(ms) });
  return { status: r.status, body: await r.json(), ms: Date.now() - started };
}

test('an owner frozen inside a transaction: reads and hellos elsewhere answer at once, its session is ended and its game taken over within the lease', { timeout: 90_000 }, async () => {
  const LEASE = 3;
  const url = await services.postgres.database('frozen');
  const env = { TESSERA_DATABASE_URL: url, TESSERA_LEASE_SECONDS: String(LEASE) };
  const [a, b] = await Promise.all([startInstance('frozen-a', env), startInstance('frozen-b', env)]);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const player = await Client.join(a.ws, id, tokens.get(0));
    const view = (await player.latestState((f) => f.view.currentSeat === 0)).view;

    // Holding the moves table makes a's move write wait inside its transaction, after it locked
    // the game's row; a is frozen there, then the table is let go: a's session is left idle in
    // its transaction, the row locked, as a SIGSTOP between two statements would leave it.
    await db.query('BEGIN');
    await db.query('LOCK TABLE moves IN SHARE MODE');
    player.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, rng(3), 0) });
    // Only a writes to this database: the one session waiting for a lock is a's move write.
    const waiting = `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`;
    const { pid } = await until('a waits for the table inside its move transaction', 5000, async () => (await db.query(waiting)).rows[0]);
    await a.kill('SIGSTOP');
    const frozenAt = Date.now();
    await db.query('COMMIT');
    const state = 'SELECT state FROM pg_stat_activity WHERE pid = $1';
    await until('a is idle in its transaction, holding the row', 2000, async () => (await db.query(state, [pid])).rows[0]?.state === 'idle in transaction');

    // Meanwhile the other instance answers for the game at once: its record, and a hello.
    const read = await getWithin(`${b.base}/api/games/${id}`, 3000);
    assert.equal(read.status, 200);
    assert.equal(read.body.status, 'playing');
    const helloStarted = Date.now();
    await assert.rejects(Client.join(b.ws, id, tokens.get(0)), /game_elsewhere/);
    const helloMs = Date.now() - helloStarted;
    assert.ok(helloMs < 3000, `hello answered in ${helloMs} ms`);

    // Once the lease has run out, asking for the game takes it over, which needs its row: the
    // session limits ended a's session (idle in a transaction) and freed it. Without them this
    // read waited as long as a stayed frozen.
    // (On a busy machine the lease may have run out during the reads above, and b taken the game
    // over already: its lease is b's then.)
    await until('the lease ran out', (LEASE + 2) * 1000, async () => (await db.query("SELECT lease_until < now() OR owner <> 'frozen-a' AS out FROM games WHERE id = $1", [id])).rows[0].out);
    const expiredRead = await getWithin(`${b.base}/api/games/${id}`, 4000);
    assert.equal(expiredRead.status, 200);
    const { client: again } = await joinWhenServed(b.ws, id, tokens.get(0)!, 10_000);
    const takeoverMs = Date.now() - frozenAt;
    assert.ok(takeoverMs <= (LEASE + 4) * 1000, `taken over ${takeoverMs} ms after the freeze (lease ${LEASE} s)`);
    assert.equal(again.welcome.history.length, 0, 'the frozen, uncommitted move is not part of the game');
    await playTurns(again, 1);
    process.stdout.write(`# frozen owner: GET ${read.ms} ms, hello ${helloMs} ms, GET after the lease ${expiredRead.ms} ms, taken over ${takeoverMs} ms after the freeze (lease ${LEASE} s)\n`);

    // a thaws: its write fails, its renewal finds the game taken; its player is sent to reconnect.
    await a.kill('SIGCONT');
    const thawed = await player.closedWith((LEASE + 5) * 1000);
    assert.equal(thawed.code, CLOSE.moved, a.log().slice(-40).join('\n'));
    again.close();
  } finally {
    await a.kill('SIGCONT').catch(() => {});
    await db.end();
    await Promise.all([a.kill('SIGKILL'), b.kill('SIGKILL')]);
  }
});

test('Redis frozen under a relayed player: the socket is closed with 4000 within seconds; with Redis back, the player reconnects and plays', { timeout: 90_000 }, async () => {
  const databaseUrl = await services.postgres.database('relay_lost');
  const [a, b] = await Promise.all(['relay-a', 'relay-b'].map((instanceId) => startServer({ databaseUrl, redisUrl: services.redis.url, instanceId, leaseSeconds: 5 })));
  const info = new Redis(services.redis.url);
  const pid = Number(/process_id:(\d+)/.exec(await info.info('server'))?.[1]);
  info.disconnect();
  assert.ok(pid > 0);
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const player = await Client.join(b.ws, id, tokens.get(0));
    assert.match((await get(b.base, '/metrics')).body, /tessera_cluster_relayed_connections 1\b/);
    await playTurns(player, 1);

    process.kill(pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    let closed: { code: number; reason: string };
    try {
      closed = await player.closedWith(10_000);
    } finally {
      // Whatever happened, Redis comes back after the check (the instances need it to close).
      setTimeout(() => process.kill(pid, 'SIGCONT'), Math.max(0, 8000 - (Date.now() - stoppedAt))).unref();
    }
    const closedMs = Date.now() - stoppedAt;
    assert.equal(closed.code, CLOSE.relayLost);
    assert.ok(closedMs < 6000, `closed ${closedMs} ms after Redis froze`);
    // While it is out, a hello through b is answered (retry later), not left hanging.
    const refusedAt = Date.now();
    await assert.rejects(Client.join(b.ws, id, tokens.get(0)), /game_elsewhere/);
    assert.ok(Date.now() - refusedAt < 3000);
    // The owner sees the player gone (its relay is down too).
    await until('a sees seat 0 disconnected', 5000, async () => (await get(a.base, `/api/games/${id}`)).body.seats[0].connected === false);

    // Redis back (8 s after it froze): the player reconnects through b, relayed again, and plays.
    const { client: again } = await joinWhenServed(b.ws, id, tokens.get(0)!, 20_000);
    const backMs = Date.now() - stoppedAt;
    await playTurns(again, 1);
    assert.match((await get(b.base, '/metrics')).body, /tessera_cluster_relay_outages_total 1\b/);
    process.stdout.write(`# Redis frozen: relayed socket closed with ${closed.code} after ${closedMs} ms; playing again ${backMs} ms after the freeze (Redis frozen 8 s)\n`);
    again.close();
  } finally {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {}
    await Promise.all([a.app.close(), b.app.close()]);
  }
});

test('with Redis, a hello relayed to a frozen owner is not left hanging: closed with 4000 within seconds, long before the lease runs out', { timeout: 60_000 }, async () => {
  const LEASE = 15;
  const env = { TESSERA_DATABASE_URL: await services.postgres.database('frozen_relay'), TESSERA_LEASE_SECONDS: String(LEASE), TESSERA_REDIS_URL: services.redis.url };
  const [a, b] = await Promise.all([startInstance('owner-a', env), startInstance('edge-b', env)]);
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    await a.kill('SIGSTOP');
    const frozenAt = Date.now();
    const c = await Client.connect(b.ws);
    c.send({ type: 'hello', v: PROTOCOL_VERSION, gameId: id, token: tokens.get(0) });
    const closed = await c.closedWith(LEASE * 1000);
    const closedMs = Date.now() - frozenAt;
    assert.equal(closed.code, CLOSE.relayLost);
    assert.ok(closedMs < 6000, `closed ${closedMs} ms after the hello`);
    process.stdout.write(`# hello relayed to a frozen owner: closed with ${closed.code} after ${closedMs} ms (lease ${LEASE} s)\n`);
  } finally {
    await a.kill('SIGCONT').catch(() => {});
    await Promise.all([a.kill('SIGKILL'), b.kill('SIGKILL')]);
  }
});

test('an owner stalled for seconds (its beats unread behind the stall) does not judge the relay broken: its relayed player plays on', { timeout: 60_000 }, async () => {
  const env = { TESSERA_DATABASE_URL: await services.postgres.database('stalled_owner'), TESSERA_LEASE_SECONDS: '15', TESSERA_REDIS_URL: services.redis.url };
  const [a, b] = await Promise.all([startInstance('stalled-a', env), startInstance('stalled-edge-b', env)]);
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const player = await Client.join(b.ws, id, tokens.get(0));
    await playTurns(player, 1);
    // Longer than the relay's silence limit (3 s): the beats published before the stall wait unread.
    await a.kill('SIGSTOP');
    await sleep(4000);
    await a.kill('SIGCONT');
    await playTurns(player, 2);
    assert.equal(player.closed, null);
    assert.doesNotMatch((await get(a.base, '/metrics')).body, /tessera_cluster_relay_outages_total [1-9]/);
    player.close();
  } finally {
    await a.kill('SIGCONT').catch(() => {});
    await Promise.all([a.kill('SIGKILL'), b.kill('SIGKILL')]);
  }
});

test('a frame relayed for a socket its owner no longer serves is answered by closing that socket with 4000, not dropped in silence', { timeout: 60_000 }, async () => {
  const env = { TESSERA_DATABASE_URL: await services.postgres.database('unknown_conn'), TESSERA_REDIS_URL: services.redis.url };
  const a = await startInstance('forgetful-a', env);
  // A stand-in edge on the relay's channels, speaking its messages.
  const edge = new Redis(services.redis.url);
  const pub = new Redis(services.redis.url);
  try {
    const replies: any[] = [];
    edge.on('message', (_channel, raw: string) => replies.push(JSON.parse(raw)));
    await edge.subscribe('tessera:instance:ghost-edge');
    const conn = 'ghost-edge:0123456789abcdef';
    await pub.publish('tessera:instance:forgetful-a', JSON.stringify({ t: 'in', conn, data: JSON.stringify({ type: 'ping', id: 1 }) }));
    const closed = await until('the owner answers', 5000, async () => replies.find((r) => r.t === 'closed'));
    assert.deepEqual([closed.conn, closed.code], [conn, CLOSE.relayLost]);
  } finally {
    edge.disconnect();
    pub.disconnect();
    await a.kill('SIGKILL');
  }
});

/** HAProxy on loopback running deploy/haproxy.cfg as shipped, its servers (tessera-a, -b, -c, as
 * named there) at `addresses` (host:port; a missing one is a closed port, down); resolves once
 * every server given is up and the missing ones are marked down. */
async function shippedHaproxy(addresses: Partial<Record<'tessera-a' | 'tessera-b' | 'tessera-c', string>>): Promise<{ front: string; stop(): void }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tessera-haproxy-'));
  let config = readFileSync(new URL('../deploy/haproxy.cfg', import.meta.url), 'utf8')
    .replace('bind :8080', `bind 127.0.0.1:${port}`)
    .replace('maxconn 20000', 'maxconn 1000');
  for (const name of ['tessera-a', 'tessera-b', 'tessera-c'] as const) config = config.replace(`server ${name} ${name}:3000`, `server ${name} ${addresses[name] ?? '127.0.0.1:1'}`);
  writeFileSync(join(dir, 'haproxy.cfg'), config);
  const proxy = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let proxyLog = '';
  proxy.stderr!.on('data', (c: Buffer) => (proxyLog += c));
  const stop = () => {
    proxy.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  const front = `http://127.0.0.1:${port}`;
  try {
    // Every server up (two good checks each) before anything is routed.
    await until('HAProxy has the instances up', 15_000, async () => {
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() =>
          fetch(`${front}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      return answers.every((s) => s === 200);
    }).catch((e) => {
      throw new Error(`${e.message}: ${proxyLog}`);
    });
    // The missing ones failed two checks.
    await sleep(2500);
  } catch (e) {
    stop();
    throw e;
  }
  return { front, stop };
}

test('the seat and welcome answers name the instance playing the game; the shipped HAProxy config routes ?instance= to it, past the relay', {
  timeout: 60_000,
  skip: skipReason(HAPROXY),
}, async () => {
  const databaseUrl = await services.postgres.database('routing');
  // Named as the servers of deploy/haproxy.cfg.
  const [a, b] = await Promise.all(['tessera-a', 'tessera-b'].map((instanceId) => startServer({ databaseUrl, redisUrl: services.redis.url, instanceId, leaseSeconds: 5 })));
  const sockets: Client[] = [];
  // Its third server stays down here.
  const proxy = await shippedHaproxy({ 'tessera-a': new URL(a.base).host, 'tessera-b': new URL(b.base).host }).catch(async (e) => {
    await Promise.all([a.app.close(), b.app.close()]);
    throw e;
  });
  const port = new URL(proxy.front).port;
  try {
    const id = (await post(a.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], clock: { turnSeconds: null } })).body.id;
    // A seat taken through b (relayed to a): the answer names a.
    const grant = await post(b.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 });
    assert.equal(grant.status, 201);
    assert.equal(grant.body.instance, 'tessera-a');
    assert.equal((await post(a.base, `/api/games/${id}/seats`, { name: 'Bea', seat: 1 })).body.instance, 'tessera-a');
    // A welcome relayed through b names a too.
    const relayed = await Client.join(b.ws, id, grant.body.token);
    assert.equal(relayed.welcome.instance, 'tessera-a');
    relayed.close();
    await until('the relayed socket is gone', 5000, async () => /tessera_cluster_relayed_connections 0\b/.test((await get(b.base, '/metrics')).body));
    // Through HAProxy with ?instance=tessera-a: every connection lands on a (least connections
    // alone would send some to b, to be relayed).
    for (let i = 0; i < 4; i++) sockets.push(await Client.join(`ws://127.0.0.1:${port}/ws?instance=tessera-a`, id, grant.body.token));
    assert.ok(sockets.every((c) => c.welcome.instance === 'tessera-a'));
    assert.match((await get(b.base, '/metrics')).body, /tessera_cluster_relayed_connections 0\b/, 'none relayed through b');
    assert.equal(a.app.connections.count, 4);
  } finally {
    for (const c of sockets) c.close();
    proxy.stop();
    await Promise.all([a.app.close(), b.app.close()]);
  }
});

test('the shipped HAProxy config: a reconnect naming a SIGKILLed owner (?instance=) is upgraded by another instance in tens of ms, not refused after retries against the dead one', {
  timeout: 90_000,
  skip: skipReason(HAPROXY),
}, async () => {
  const env = { TESSERA_DATABASE_URL: await services.postgres.database('failover'), TESSERA_LEASE_SECONDS: '3', TESSERA_REDIS_URL: services.redis.url };
  const [a, b] = await Promise.all([startInstance('tessera-a', env), startInstance('tessera-b', env)]);
  const proxy = await shippedHaproxy({ 'tessera-a': new URL(a.base).host, 'tessera-b': new URL(b.base).host });
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    const direct = `${proxy.front.replace('http', 'ws')}/ws?instance=tessera-a`;
    const player = await Client.join(direct, id, tokens.get(0));
    assert.equal(player.welcome.instance, 'tessera-a');
    await playTurns(player, 1);
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    await player.closedWith(5000);
    // At once, as a client does: HAProxy's checks have not yet marked tessera-a down. (What the
    // upgraded socket's hello gets is the instances' business: here, relayed to the dead owner
    // while its lease runs, it is closed with 4000.)
    const closedAt = Date.now();
    const upgraded = await Client.connect(direct).then(
      (c) => {
        c.close();
        return true;
      },
      () => false,
    );
    const upgradeMs = Date.now() - closedAt;
    assert.ok(upgraded && upgradeMs < 1000, `the reconnect's upgrade was ${upgraded ? 'accepted' : 'refused'} after ${upgradeMs} ms`);
    const again = await until('playing again', 20_000, () => Client.join(direct, id, tokens.get(0)).catch(() => sleep(100).then(() => null)));
    const playingMs = Date.now() - killedAt;
    assert.equal(again.welcome.instance, 'tessera-b');
    await playTurns(again, 1);
    process.stdout.write(
      `# shipped HAProxy config, owner SIGKILLed: the reconnect naming it upgraded ${upgradeMs} ms after the close; playing again on tessera-b ${playingMs} ms after the kill (lease 3 s)\n`,
    );
    again.close();
  } finally {
    proxy.stop();
    await Promise.all([a.kill('SIGKILL'), b.kill('SIGKILL')]);
  }
});

test('an instance restarted under its own id takes its games back at once, not after its old lease', { timeout: 90_000 }, async () => {
  const LEASE = 40;
  const url = await services.postgres.database('same_id');
  const first = await startInstance('same-a', { TESSERA_DATABASE_URL: url, TESSERA_LEASE_SECONDS: String(LEASE) });
  const { id, tokens } = await createGame(first.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const player = await Client.join(first.ws, id, tokens.get(0));
  await playTurns(player, 2);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const killedAt = Date.now();
  await first.kill('SIGKILL');
  // The old lease as the kill left it: the restart must not wait for it. (Measured against the
  // lease itself, not a share of it: a restart on a busy machine can take a good part of it.)
  const leaseUntil = (await db.query('SELECT lease_until FROM games WHERE id = $1', [id])).rows[0].lease_until.getTime();
  const again = await startInstance('same-a', first.env);
  const welcomed = await Client.join(again.ws, id, tokens.get(0));
  const welcomedAt = Date.now();
  const welcomeMs = welcomedAt - killedAt;
  assert.equal(welcomed.welcome.type, 'welcome');
  // Both person moves were acknowledged, and the bot's answer to the first: the answer to the
  // second may still have been in flight at the kill.
  assert.ok(welcomed.welcome.history.length >= 3, 'the moves acknowledged before the kill are there');
  assert.ok(welcomedAt < leaseUntil, `welcomed ${welcomeMs} ms after the kill, ${welcomedAt - leaseUntil} ms after the old lease ran out (lease ${LEASE} s)`);
  await playTurns(welcomed, 1);
  const { rows } = await db.query('SELECT owner, owner_epoch FROM games WHERE id = $1', [id]);
  await db.end();
  assert.deepEqual([rows[0].owner, Number(rows[0].owner_epoch)], ['same-a', 2], 'taken back at a new fencing epoch');
  process.stdout.write(`# same-id restart: welcome ${welcomeMs} ms after the SIGKILL (restart included; lease ${LEASE} s)\n`);
  welcomed.close();
  await again.kill('SIGKILL');
});

test('a player relayed to an instance that restarts under its own id is sent to reconnect within seconds, not left on a silent socket', { timeout: 90_000 }, async () => {
  const LEASE = 40;
  const env = { TESSERA_DATABASE_URL: await services.postgres.database('same_id_relayed'), TESSERA_LEASE_SECONDS: String(LEASE), TESSERA_REDIS_URL: services.redis.url };
  const [a, b] = await Promise.all([startInstance('same-owner-a', env), startInstance('same-edge-b', env)]);
  try {
    const { id, tokens } = await createGame(a.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
    // On b, relayed to a; it sends nothing of its own from here on (no ping, no move).
    const player = await Client.join(b.ws, id, tokens.get(0));
    await playTurns(player, 1);
    const killedAt = Date.now();
    await a.kill('SIGKILL');
    const again = await startInstance('same-owner-a', a.env);
    const upAt = Date.now();
    // The restarted a knows nothing of the relayed socket; its id alone has not changed.
    const closed = await player.closedWith(15_000);
    const closedMs = Date.now() - upAt;
    assert.equal(closed.code, CLOSE.moved);
    assert.ok(closedMs < 5000, `closed ${closedMs} ms after the restarted owner was up`);
    const restartMs = upAt - killedAt;
    // Reconnected through b, relayed to the restarted a, the game goes on.
    const { client: back } = await joinWhenServed(b.ws, id, tokens.get(0)!, 10_000);
    assert.equal(back.welcome.instance, 'same-owner-a');
    await playTurns(back, 1);
    process.stdout.write(`# owner restarted under its own id: relayed socket closed with ${closed.code} at most ${closedMs} ms after it was up (restart ${restartMs} ms; lease ${LEASE} s)\n`);
    back.close();
    await again.kill('SIGKILL');
  } finally {
    await Promise.all([a.kill('SIGKILL'), b.kill('SIGKILL')]);
  }
});

test('PostgreSQL stopped: a move and a new game are refused naming the database, not the disk', { timeout: 60_000 }, async () => {
  // Its own PostgreSQL: this one is stopped for good.
  const own = await startPostgres();
  const databaseUrl = await own.database('stopped');
  const server = await startServer({ databaseUrl, instanceId: 'pg-stop', leaseSeconds: 5 });
  try {
    const created = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], clock: { turnSeconds: null } });
    const id = created.body.id;
    const seat = await post(server.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 });
    await post(server.base, `/api/games/${id}/seats`, { name: 'Bea', seat: 1 });
    const ann = await Client.join(server.ws, id, seat.body.token);
    const view = (await ann.latestState((f) => f.view.status === 'playing')).view;

    // A fast shutdown (pg_ctl stop -m fast): the postmaster gets SIGINT.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const dir = (await db.query('SHOW data_directory')).rows[0].data_directory as string;
    await db.end();
    process.kill(Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGINT');
    await until('PostgreSQL is down', 10_000, async () => {
      const probe = new pg.Client({ connectionString: databaseUrl });
      return probe.connect().then(
        () => probe.end().then(() => false),
        () => true,
      );
    });

    ann.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, rng(5), 0), id: 'm' });
    const refused = await ann.next((f) => f.type === 'error', 15_000);
    assert.equal(refused.code, 'storage_unavailable');
    assert.match(refused.message, /database cannot be reached/);
    assert.doesNotMatch(refused.message, /disk/);
    const game = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] });
    assert.equal(game.status, 503);
    assert.equal(game.body.code, 'storage_unavailable');
    assert.match(game.body.message, /database cannot be reached/);
    ann.close();
  } finally {
    await server.app.close();
    await own.stop();
  }
});

test('postgres store: taking over a game whose row is locked (its owner frozen mid-write) does not wait for the lock', { timeout: 20_000 }, async () => {
  const url = await services.postgres.database('locked_claim');
  const x = await PostgresStore.connect({ url, instance: 'x', leaseMs: 100 });
  const y = await PostgresStore.connect({ url, instance: 'y', leaseMs: 100 });
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await x.create(twoPeopleSetup('g'), [null, null]);
    // Leases run on PostgreSQL's clock: wait until the database says x's has run out.
    await until("x's lease ran out", 5000, async () => (await y.owners(['g'])).get('g')?.live === false);
    // x's lease ran out while a transaction of its still holds the row.
    await db.query('BEGIN');
    await db.query("SELECT 1 FROM games WHERE id = 'g' FOR UPDATE");
    const started = Date.now();
    assert.equal(await y.claim('g'), undefined, 'not taken while locked');
    assert.ok(Date.now() - started < 1000, `answered in ${Date.now() - started} ms`);
    await db.query('ROLLBACK');
    assert.equal((await y.claim('g'))?.setup.id, 'g', 'taken once the lock is gone');
  } finally {
    await db.end();
    await Promise.all([x.close(), y.close()]);
  }
});
