// Turn-based games in a cluster (a private PostgreSQL, instances in this process, no Redis): a game
// nobody is looking at costs its row only. The instance a player reaches claims its lease and
// loads it; once it rests (nobody connected, no bot to move, no write in flight) the sweep lets it
// leave memory and gives the lease back, and no lease scan adopts it. A passed deadline swept by
// two instances at once is played by the one whose claim wins, once.
import assert from 'node:assert/strict';
import pg from 'pg';
import { Client, createGame, type Running, startServer, WAIT } from './server-helpers.ts';
import { clusterTests } from './support/cluster.ts';

const { test, services } = clusterTests();
// Nothing here waits for a lease to run out (a clean close ends its leases at once): a long one
// keeps a starved event loop from losing a game mid-transaction on a loaded machine.
const LEASE_SECONDS = 10;
/** Longer than a lease scan's interval (a second): a scan that would adopt a game has run. */
const SCAN_WAIT_MS = 1500;
const PEOPLE = [{ kind: 'person' as const }, { kind: 'person' as const }];
const TURN_BASED = { pace: { kind: 'turnBased' as const, moveDays: 1 as const } };

interface Cluster {
  instances: Running[];
  db: pg.Pool;
  close(): Promise<void>;
}

async function cluster(name: string, n: number): Promise<Cluster> {
  const databaseUrl = await services.postgres.database(name);
  const instances = await Promise.all(Array.from({ length: n }, (_, i) => startServer({ databaseUrl, instanceId: `${name}-${i}`, leaseSeconds: LEASE_SECONDS })));
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  return {
    instances,
    db,
    close: async () => {
      // One may be closed already (the test's own).
      await Promise.allSettled(instances.map((i) => i.app.close()));
      await db.end();
    },
  };
}

/** The game's lease as its row holds it. */
async function lease(db: pg.Pool, id: string): Promise<{ owner: string | null; leased: boolean }> {
  const { rows } = await db.query('SELECT owner, lease_until IS NOT NULL AND lease_until > now() AS leased FROM games WHERE id = $1', [id]);
  return { owner: rows[0].owner, leased: rows[0].leased };
}

async function storedMoves(db: pg.Pool, id: string): Promise<number> {
  const { rows } = await db.query('SELECT count(*)::int AS n FROM moves WHERE game_id = $1', [id]);
  return rows[0].n;
}

/** Sweeps every instance until none holds the game (its socket's close may still be on its way). */
async function restEverywhere(t: { waitFor: (fn: () => Promise<void>, o: typeof WAIT) => Promise<unknown> }, instances: Running[], id: string): Promise<void> {
  await t.waitFor(async () => {
    await Promise.all(instances.map((i) => i.app.games.sweepNow()));
    // (A room is not compared: a failed comparison would print the whole app.)
    for (const i of instances) assert.ok(i.app.games.loaded(id) === undefined, 'the resting game left memory');
  }, WAIT);
}

/** Connects to `via` with the seat's token, plays a legal placement and leaves; returns the
 * turn after it. */
async function playOnce(via: Running, id: string, token: string, seat: number): Promise<number> {
  const client = await Client.join(via.ws, id, token);
  try {
    const { view } = await client.latestState();
    assert.equal(view.currentSeat, seat, `seat ${seat}'s turn`);
    assert.ok(via.app.games.loaded(id), 'the instance reached holds the game while it is played');
    const p = view.legal[0];
    client.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
    const after = await client.latestState((f) => f.view.turn > view.turn, 10_000);
    return after.view.turn;
  } finally {
    client.close();
    if (!client.closed) await client.closedWith(5000).catch(() => {});
  }
}

test('played on A and left, a turn-based game leaves A with its lease; a player reaching B has B load and play it', { timeout: 60_000 }, async (t) => {
  const { instances, db, close } = await cluster('tb_reach', 2);
  const [a, b] = instances;
  try {
    const { id, tokens } = await createGame(a.base, PEOPLE, undefined, TURN_BASED);
    await playOnce(a, id, tokens.get(0) as string, 0);
    await restEverywhere(t, [a], id);
    assert.deepEqual(await lease(db, id), { owner: null, leased: false }, 'A gave the lease back');
    // No lease scan adopts it: it has no owner until reached.
    await new Promise((r) => setTimeout(r, SCAN_WAIT_MS));
    assert.ok(a.app.games.loaded(id) === undefined && b.app.games.loaded(id) === undefined, 'no instance adopted it');

    await playOnce(b, id, tokens.get(1) as string, 1);
    assert.equal(await storedMoves(db, id), 2, 'one move through each instance');
    assert.deepEqual(await lease(db, id), { owner: 'tb_reach-1', leased: true }, 'B holds it while it is loaded');
    await restEverywhere(t, [a, b], id);
    assert.deepEqual(await lease(db, id), { owner: null, leased: false }, 'and gives it back once it rests');
  } finally {
    await close();
  }
});

test('N idle turn-based games on two instances: after the sweep neither holds any; a game with a player connected stays, and outlives its instance', { timeout: 60_000 }, async (t) => {
  const { instances, db, close } = await cluster('tb_idle', 3);
  const [a, b, c] = instances;
  const N = 8;
  try {
    const ids: string[] = [];
    for (let i = 0; i < N; i++) ids.push((await createGame((i % 2 ? b : a).base, PEOPLE, undefined, TURN_BASED)).id);
    assert.equal(a.app.games.inMemory + b.app.games.inMemory, N, 'created: held by their creators');
    await Promise.all([a.app.games.sweepNow(), b.app.games.sweepNow()]);
    await new Promise((r) => setTimeout(r, SCAN_WAIT_MS));
    assert.deepEqual([a.app.games.inMemory, b.app.games.inMemory], [0, 0], 'no game in memory after the sweep, none adopted since');
    const { rows } = await db.query('SELECT count(*)::int AS n FROM games WHERE id = ANY($1) AND owner IS NULL AND lease_until IS NULL', [ids]);
    assert.equal(rows[0].n, N, 'every lease given back');

    // A player connected on c keeps the game loaded there, sweep or not.
    const kept = await createGame(c.base, PEOPLE, undefined, TURN_BASED);
    const client = await Client.join(c.ws, kept.id, kept.tokens.get(0));
    await client.latestState();
    await c.app.games.sweepNow();
    assert.ok(c.app.games.loaded(kept.id), 'watched: not resting');
    assert.deepEqual(await lease(db, kept.id), { owner: 'tb_idle-2', leased: true });
    // c goes away holding it: nobody adopts it; the next player to reach an instance loads it there.
    await c.app.close();
    await new Promise((r) => setTimeout(r, SCAN_WAIT_MS));
    assert.deepEqual([a.app.games.inMemory, b.app.games.inMemory], [0, 0], 'its lease ran out: still no owner until reached');
    await playOnce(b, kept.id, kept.tokens.get(0) as string, 0);
    assert.equal((await lease(db, kept.id)).owner, 'tb_idle-1');
    await restEverywhere(t, [a, b], kept.id);
  } finally {
    await close();
  }
});

test('a passed deadline swept by two instances at once: one claims the game and its stand-in plays the move once; then it rests again', { timeout: 60_000 }, async (t) => {
  const { instances, db, close } = await cluster('tb_deadline', 2);
  const [a, b] = instances;
  try {
    const { id } = await createGame(a.base, PEOPLE, undefined, TURN_BASED);
    await restEverywhere(t, [a, b], id);
    const deadline = Number((await db.query('SELECT deadline_at FROM games WHERE id = $1', [id])).rows[0].deadline_at);
    await Promise.all([a.app.games.sweepDeadlines(deadline), b.app.games.sweepDeadlines(deadline)]);
    assert.equal([a, b].filter((i) => i.app.games.loaded(id)).length, 1, 'one instance claimed it, the other skipped it');
    await t.waitFor(async () => assert.equal(await storedMoves(db, id), 1, 'the stand-in moved'), WAIT);
    // Both sweep again at the same time: the turn has moved on, nothing more is played.
    await Promise.all([a.app.games.sweepDeadlines(deadline), b.app.games.sweepDeadlines(deadline)]);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await storedMoves(db, id), 1, 'one move for that turn');
    const { rows } = await db.query('SELECT seq, move FROM moves WHERE game_id = $1', [id]);
    assert.deepEqual(
      rows.map((r) => r.seq),
      [0],
    );
    const marks = (await db.query('SELECT deadline_marks FROM games WHERE id = $1', [id])).rows[0].deadline_marks;
    assert.deepEqual([marks.missed, marks.missedTurn], [[1, 0], 0], 'the miss counted once');
    await restEverywhere(t, [a, b], id);
    assert.deepEqual(await lease(db, id), { owner: null, leased: false });
  } finally {
    await close();
  }
});
