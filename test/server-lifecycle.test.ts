// Games do not live forever: a game nobody plays any more expires (recorded as abandoned, scored
// as it stood, its slot freed), and finished games leave memory for a bounded cache.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { replayRecord } from '../bot-engine/record.ts';
import { type Endpoint, Client, createGame, get, post, injectServer } from './server-helpers.ts';

const metric = async (base: Endpoint, name: string) => Number(((await get(base, '/metrics')).body as string).match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1]);

test('an open seat nobody takes, and a game every person left, expire as abandoned', async () => {
  const server = await injectServer({ expireOpenSeatSeconds: 1, expireAwaySeconds: 2, expireIdleSeconds: 3600 });
  try {
    // Waiting for a second person who never comes.
    const waiting = (await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], listed: true })).body.id;
    const lobbyWatcher = await Client.join(server.ws, waiting);

    // Two people play a few moves, then both leave; a stand-in would play after the 1 s grace.
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'person' }], undefined, { listed: true });
    const people = [await Client.join(server.ws, id, tokens.get(0)), await Client.join(server.ws, id, tokens.get(1))];
    for (let turn = 0; turn < 4; ) {
      const seat = turn % 2;
      const view = (await people[seat].latestState((f) => f.view.turn === turn && f.view.legal)).view;
      const p = view.legal[0];
      people[seat].send({ type: 'move', turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: p.meeples[0] ?? null } });
      turn = (await people[seat].latestState((f) => f.view.turn > turn)).view.turn;
    }
    assert.equal(await metric(server.base, 'tessera_games_active'), 2);
    const watcher = await Client.join(server.ws, id);
    const before = (await watcher.latestState()).view;
    for (const p of people) p.close();

    const ended = (await watcher.latestState((f) => f.view.abandoned, 10_000)).view;
    assert.equal(ended.status, 'finished');
    assert.equal(ended.turn, before.turn, 'no stand-in played for people who all left');
    const gone = (await lobbyWatcher.latestState((f) => f.view.abandoned, 10_000)).view;
    assert.equal(gone.status, 'finished');

    // Listed as abandoned, with followers scored as they stood; the record says so and replays to them.
    const listed = (await get(server.base, '/api/games/finished')).body.games;
    const entry = listed.find((g: { id: string }) => g.id === id);
    assert.equal(entry.abandoned, true);
    assert.deepEqual(
      entry.players.map((p: { score: number }) => p.score),
      ended.seats.map((s: { score: number }) => s.score),
    );
    assert.equal(listed.find((g: { id: string }) => g.id === waiting).abandoned, true);
    const record = (await get(server.base, `/api/games/${id}/record`)).body;
    assert.deepEqual([record.final, record.abandoned, record.moves.length], [true, true, before.turn]);
    assert.deepEqual(
      Object.values(replayRecord(record).scores),
      entry.players.map((p: { score: number }) => p.score),
    );

    // Their slots are free; the lobby no longer offers the open seat.
    assert.equal(await metric(server.base, 'tessera_games_active'), 0);
    assert.match((await get(server.base, '/metrics')).body, /tessera_games_abandoned_total\{why="away"\} 1/);
    assert.deepEqual((await get(server.base, '/api/games')).body.games, []);
    watcher.close();
    lobbyWatcher.close();
  } finally {
    await server.app.close();
  }
});

test('finished games leave memory: only a bounded cache stays, and they are still served', async () => {
  const server = await injectServer({ expireOpenSeatSeconds: 1, finishedCache: 5, createsPerMinute: 1000, gamesPerIp: 1000 });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] })).body.id);
    assert.equal(await metric(server.base, 'tessera_games_in_memory'), 40);
    // Every one expires; the sweep after that moves them out of memory.
    const watcher = await Client.join(server.ws, ids[39]);
    await watcher.latestState((f) => f.view.abandoned, 10_000);
    watcher.close();
    let inMemory = await metric(server.base, 'tessera_games_in_memory');
    for (let i = 0; i < 20 && inMemory > 5; i++) {
      await new Promise((r) => setTimeout(r, 100));
      inMemory = await metric(server.base, 'tessera_games_in_memory');
    }
    assert.equal(inMemory, 5);
    // Any of them is still served (from the store), without growing memory past the cache.
    for (const id of ids.slice(0, 20)) assert.equal((await get(server.base, `/api/games/${id}`)).body.status, 'finished');
    assert.equal(await metric(server.base, 'tessera_games_in_memory'), 5);
  } finally {
    await server.app.close();
  }
});

/** Polls until `ok` holds (or the time is up); returns the last value. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

const finishedAt = async (base: Endpoint, id: string) => {
  const entry = (await get(base, '/api/games/finished')).body.games.find((g: { id: string }) => g.id === id);
  return entry && { at: Date.parse(entry.finishedAt), abandoned: entry.abandoned };
};

test('restarts neither extend nor cut expiry: three seated players who never connect expire on time under a restart every 1.5 s', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-expiry-'));
  const config = { dataDir, expireAwaySeconds: 2, expireOpenSeatSeconds: 3600, expireIdleSeconds: 3600 };
  // New games wait for a warm pool; restarts need none (no bot plays here).
  let server = await injectServer(config);
  let restarts = 0;
  try {
    const id = (await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'person' }], listed: true })).body.id;
    for (const name of ['Ann', 'Ben']) await post(server.base, `/api/games/${id}/seats`, { name });
    const lastSeatFrom = Date.now();
    assert.equal((await post(server.base, `/api/games/${id}/seats`, { name: 'Cat' })).status, 201);
    const lastSeatTo = Date.now();
    // Restarted before any server has been up for the 2 s the game may stay without a person.
    while (Date.now() - lastSeatTo < 15_000) {
      const status = await until(
        () => get(server.base, `/api/games/${id}`).then((r) => r.body.status),
        (s) => s === 'finished',
        1500,
      );
      if (status === 'finished') break;
      await server.app.close();
      server = await injectServer(config, false);
      restarts++;
    }
    const end = await finishedAt(server.base, id);
    assert.ok(end?.abandoned, `still not abandoned after ${restarts} restarts in ${Date.now() - lastSeatTo} ms`);
    assert.ok(restarts >= 1, 'the game outlived a restart');
    // Counted from the last seat taken, across the restarts: not earlier, and not much later
    // (the sweep runs every 0.5 s; a restart leaves no server for a moment).
    assert.ok(end.at >= lastSeatFrom + 2000, `abandoned ${end.at - lastSeatFrom} ms after the last seat: cut short`);
    assert.ok(end.at <= lastSeatTo + 2000 + 3000, `abandoned ${end.at - lastSeatTo} ms after the last seat: extended`);
  } finally {
    await server.app.close();
  }
});

test('a restart does not cut the time of people who were connected until it: away time counts from the shutdown', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-expiry-'));
  const config = { dataDir, expireAwaySeconds: 2, expireOpenSeatSeconds: 3600, expireIdleSeconds: 3600 };
  let server = await injectServer(config);
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'person' }], undefined, { listed: true });
    const people = [await Client.join(server.ws, id, tokens.get(0)), await Client.join(server.ws, id, tokens.get(1))];
    // Connected for longer than the away limit: only their presence keeps the game.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal((await get(server.base, `/api/games/${id}`)).body.status, 'playing');
    const closedFrom = Date.now();
    await server.app.close();
    for (const p of people) p.close();
    server = await injectServer(config, false);
    const status = await until(
      () => get(server.base, `/api/games/${id}`).then((r) => r.body.status),
      (s) => s === 'finished',
      10_000,
    );
    assert.equal(status, 'finished');
    const end = await finishedAt(server.base, id);
    assert.ok(end.at >= closedFrom + 2000, `abandoned ${end.at - closedFrom} ms after the shutdown: the restart cut the people's time`);
  } finally {
    await server.app.close();
  }
});

test('a crash loop still ends expired games: a server up for less than one sweep interval ends a game past its expiry at boot', { timeout: 30_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-expiry-'));
  // Shortest expiry 120 s: the sweep runs every 30 s, far longer than this server is up.
  const config = { dataDir, expireOpenSeatSeconds: 120, expireAwaySeconds: 3600, expireIdleSeconds: 3600 };
  let server = await injectServer(config);
  const id = (await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }], listed: true })).body.id;
  await server.app.close();
  // Left waiting since long before this boot (earlier servers of the loop never lived to sweep).
  const db = new DatabaseSync(join(dataDir, 'tessera.db'));
  db.prepare('UPDATE games SET last_activity_at = ?, last_person_at = ? WHERE id = ?').run(Date.now() - 600_000, Date.now() - 600_000, id);
  db.close();
  const bootedFrom = Date.now();
  server = await injectServer(config, false);
  try {
    const status = (await get(server.base, `/api/games/${id}`)).body.status;
    assert.ok(Date.now() - bootedFrom < 30_000, 'read within one sweep interval of the boot');
    assert.equal(status, 'finished');
    assert.equal((await finishedAt(server.base, id))?.abandoned, true);
    assert.match((await get(server.base, '/metrics')).body, /tessera_games_abandoned_total\{why="open_seat"\} 1/);
  } finally {
    await server.app.close();
  }
});
