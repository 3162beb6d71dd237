// One address may hold so many unfinished games it created (TESSERA_GAMES_PER_IP): past it,
// creating answers too_many_games and changes nothing, other addresses create as before, and a
// game that finishes (or a creation that failed) gives its place back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../server/app.ts';
import { CodedError } from '../server/errors.ts';
import { GamesPerIp } from '../server/http/games-per-ip.ts';
import { testConfig } from './server-helpers.ts';

test('the count per address: a finished game and a failed creation give their place back; only the address at its cap is refused', () => {
  const unfinished = new Set<string>();
  const perIp = new GamesPerIp(2, (id) => unfinished.has(id), 10);
  const create = (ip: string, id: string) => {
    const placed = perIp.reserve(ip);
    unfinished.add(id);
    placed(id);
  };
  create('10.0.0.1', 'a');
  // A creation in flight holds its place: a second, concurrent one fills the cap.
  const inFlight = perIp.reserve('10.0.0.1');
  assert.throws(
    () => perIp.reserve('10.0.0.1'),
    (e: unknown) => e instanceof CodedError && e.code === 'too_many_games',
  );
  inFlight(null); // it failed: the place is free again
  create('10.0.0.1', 'b');
  assert.throws(() => perIp.reserve('10.0.0.1'), /2 games that are not finished/);
  create('10.0.0.2', 'c');
  unfinished.delete('a'); // game a finished
  create('10.0.0.1', 'd');
  assert.throws(() => perIp.reserve('10.0.0.1'), /not finished/);
});

test('many addresses whose games ended are forgotten, not kept', () => {
  const unfinished = new Set<string>();
  const perIp = new GamesPerIp(1, (id) => unfinished.has(id), 3);
  for (let i = 0; i < 100; i++) {
    perIp.reserve(`10.0.1.${i}`)(`g${i}`);
    // Each game finishes at once: past 3 addresses, a reservation prunes them all.
  }
  const held = (perIp as unknown as { byIp: Map<string, unknown> }).byIp;
  assert.ok(held.size <= 4, `${held.size} addresses kept`);
});

test('POST /api/games past the cap: 429 too_many_games, no game made; another address still creates', async () => {
  const app = await buildApp(testConfig({ gamesPerIp: 2 }));
  try {
    await app.ready();
    await app.poolStarted;
    const create = (remoteAddress: string) => app.inject({ method: 'POST', url: '/api/games', payload: { seats: [{ kind: 'person' }, { kind: 'person' }], listed: true }, remoteAddress });
    assert.equal((await create('10.0.0.5')).statusCode, 201);
    assert.equal((await create('10.0.0.5')).statusCode, 201);
    const refused = await create('10.0.0.5');
    assert.deepEqual([refused.statusCode, refused.json().code], [429, 'too_many_games']);
    assert.equal((await app.inject({ method: 'GET', url: '/api/games' })).json().games.length, 2, 'the refused create made no game');
    assert.equal((await create('10.0.0.6')).statusCode, 201);
  } finally {
    await app.close();
  }
});
