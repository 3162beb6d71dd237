// One contract over both ways to reach a game (server/directory/), as store.test.ts runs one over
// three stores: the same routes and WebSocket scenarios against one instance, and against a
// cluster of two (private PostgreSQL and Redis) where the game is played by instance A and
// every request goes through instance B. And the imports that keep it one way: routes and
// connections never reach server/cluster/, which never reaches them.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PrivatePostgres, startPostgres } from '../support/postgres.ts';
import { type PrivateRedis, startRedis } from '../support/redis.ts';
import { randomMove } from '../support/game-client.ts';
import { rng } from '../support/random.ts';
import { Client, get, playUntilOver, post, type Running, startServer } from './server-helpers.ts';
import { needing, POSTGRES, REDIS } from './support/needs.ts';

const { test, before, after, skip } = needing([POSTGRES, REDIS], (name) => name.startsWith('cluster'));

let postgres: PrivatePostgres | undefined;
let redis: PrivateRedis | undefined;
before(async () => {
  if (skip) return;
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
});
after(async () => {
  await Promise.all([postgres?.stop(), redis?.stop()]);
});

interface Reach {
  /** Plays the games created here. */
  owner: Running;
  /** Every other request goes through here. */
  edge: Running;
  /** The id the owner is named by in seat grants and welcomes (none alone). */
  ownerInstance: string | undefined;
  close(): Promise<void>;
}

const directories: [string, () => Promise<Reach>][] = [
  [
    'local',
    async () => {
      const one = await startServer();
      return { owner: one, edge: one, ownerInstance: undefined, close: () => one.app.close() };
    },
  ],
  [
    'cluster',
    async () => {
      const databaseUrl = await (postgres as PrivatePostgres).database('directory');
      const redisUrl = (redis as PrivateRedis).url;
      const [a, b] = await Promise.all(['dir-a', 'dir-b'].map((instanceId) => startServer({ databaseUrl, redisUrl, instanceId, leaseSeconds: 5 })));
      return { owner: a, edge: b, ownerInstance: 'dir-a', close: async () => void (await Promise.all([a.app.close(), b.app.close()])) };
    },
  ],
];

const twoPeople = { seats: [{ kind: 'person' }, { kind: 'person' }], clock: { turnSeconds: null } };

for (const [kind, reach] of directories) {
  test(`${kind} directory: a game is created, listed, read, seated and played through any instance`, { timeout: 60_000 }, async () => {
    const { owner, edge, ownerInstance, close } = await reach();
    try {
      const created = await post(owner.base, '/api/games', { ...twoPeople, listed: true });
      assert.equal(created.status, 201);
      const id = created.body.id;
      const listed = (await get(edge.base, '/api/games')).body.games.find((g: { id: string }) => g.id === id);
      assert.deepEqual(listed?.openSeats, [0, 1], 'the lobby lists it wherever it is played');

      const ann = await post(edge.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 });
      assert.equal(ann.status, 201, JSON.stringify(ann.body));
      assert.deepEqual([ann.body.gameId, ann.body.seat, ann.body.instance], [id, 0, ownerInstance]);
      const read = (await get(edge.base, `/api/games/${id}`)).body;
      assert.deepEqual([read.seats[0].name, read.openSeats], ['Ann', [1]]);
      const bea = await post(owner.base, `/api/games/${id}/seats`, { name: 'Bea' });
      assert.deepEqual([bea.status, bea.body.seat], [201, 1]);
      const full = await post(edge.base, `/api/games/${id}/seats`, { name: 'Cy' });
      assert.deepEqual([full.status, full.body.code], [409, 'no_seat'], 'the game refuses, whichever instance asked');
      assert.equal(
        (await get(edge.base, '/api/games')).body.games.find((g: { id: string }) => g.id === id),
        undefined,
        'a full game leaves the lobby',
      );

      const onEdge = await Client.join(edge.ws, id, ann.body.token);
      const onOwner = await Client.join(owner.ws, id, bea.body.token);
      assert.deepEqual([onEdge.welcome.seat, onEdge.welcome.instance], [0, ownerInstance]);
      assert.ok(owner.app.games.loaded(id), 'the owner plays it');
      if (edge !== owner) assert.equal(edge.app.games.loaded(id), undefined, 'the edge holds no room for it');

      const clients = new Map([
        [0, onEdge],
        [1, onOwner],
      ]);
      // Peeked, not taken: when onEdge moves first, the frame listing its moves may be this one.
      const start = (await onEdge.peekState((f) => f.view.status === 'playing')).view;
      const mover = clients.get(start.currentSeat) as Client;
      const view = (await mover.latestState((f) => f.view.turn === start.turn && f.view.legal?.length > 0)).view;
      mover.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, rng(3), 0) });
      for (const c of clients.values()) assert.equal((await c.latestState((f) => f.view.turn === start.turn + 1)).last.seat, start.currentSeat);
      // A bad frame is answered by the validation where the game is played, as it is here.
      onEdge.send({ type: 'move', turn: 'x', id: 'bad' });
      assert.deepEqual(await onEdge.next((f) => f.type === 'error').then((f) => [f.code, f.ref]), ['bad_frame', 'bad']);
      onEdge.close();
      onOwner.close();
    } finally {
      await close();
    }
  });

  test(`${kind} directory: a game nobody has is unknown_game to every route and to a hello`, { timeout: 60_000 }, async () => {
    const { edge, close } = await reach();
    try {
      const missing = 'no-such-game';
      const answers = await Promise.all([
        get(edge.base, `/api/games/${missing}`),
        post(edge.base, `/api/games/${missing}/seats`, { name: 'Ann' }),
        post(edge.base, `/api/games/${missing}/rematch`, { token: 'x'.repeat(32) }),
      ]);
      assert.deepEqual(
        answers.map((a) => [a.status, a.body.code]),
        [
          [404, 'unknown_game'],
          [404, 'unknown_game'],
          [404, 'unknown_game'],
        ],
      );
      await assert.rejects(Client.join(edge.ws, missing), /unknown_game/);
    } finally {
      await close();
    }
  });

  test(`${kind} directory: after a game, each player's rematch seat is taken wherever the rematch is played`, { timeout: 90_000 }, async () => {
    const { owner, edge, ownerInstance, close } = await reach();
    try {
      const id = (await post(owner.base, '/api/games', twoPeople)).body.id;
      const ann = (await post(owner.base, `/api/games/${id}/seats`, { name: 'Ann', seat: 0 })).body;
      const bea = (await post(edge.base, `/api/games/${id}/seats`, { name: 'Bea', seat: 1 })).body;
      const clients = new Map([
        [0, await Client.join(owner.ws, id, ann.token)],
        [1, await Client.join(edge.ws, id, bea.token)],
      ]);
      assert.equal((await playUntilOver(clients, 60_000)).status, 'finished');
      for (const c of clients.values()) c.close();

      // Ann asks where the game was played: the rematch is made there.
      const first = await post(owner.base, `/api/games/${id}/rematch`, { token: ann.token });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.deepEqual([first.body.seat, first.body.instance], [0, ownerInstance]);
      // Bea asks through the other instance: she gets her seat in that same rematch.
      const second = await post(edge.base, `/api/games/${id}/rematch`, { token: bea.token });
      assert.equal(second.status, 201, JSON.stringify(second.body));
      assert.deepEqual([second.body.gameId, second.body.seat, second.body.instance], [first.body.gameId, 1, ownerInstance]);
      const again = await Client.join(edge.ws, second.body.gameId, second.body.token);
      const view = (await again.latestState((f) => f.view.status === 'playing')).view;
      assert.deepEqual(
        view.seats.map((s: { name: string }) => s.name),
        ['Ann', 'Bea'],
      );
      again.close();
    } finally {
      await close();
    }
  });
}

/** Each server module (relative to server/) with the server modules it imports. */
function serverImports(): Map<string, string[]> {
  const root = fileURLToPath(new URL('../server', import.meta.url));
  const imports = new Map<string, string[]>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const source = readFileSync(file, 'utf8');
    const targets = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/gms)].map((m) => relative(root, resolve(dirname(file), m[1])));
    imports.set(relative(root, file), targets);
  }
  return imports;
}

test('routes, connections and the games reach a game through the directory: none imports server/cluster/, which imports neither ws/ nor http/', () => {
  const reaching = (from: (module: string) => boolean, to: string[]) =>
    [...serverImports()].filter(([module, targets]) => from(module) && targets.some((t) => to.some((folder) => t.startsWith(folder)))).map(([module]) => module);
  const reachers = (m: string) => ['http/', 'ws/', 'directory/'].some((folder) => m.startsWith(folder)) || m === 'games/service.ts' || m === 'games/room.ts';
  assert.deepEqual(reaching(reachers, ['cluster/']), []);
  assert.deepEqual(
    reaching((m) => m.startsWith('cluster/'), ['ws/', 'http/']),
    [],
  );
  assert.ok(reaching(() => true, ['cluster/']).includes('plugins/directory.ts'), 'the check reads the imports it means to');
});
