// Whole games over WebSockets, through app.injectWS (the server's own socket handling, no port):
// person vs bot to the final scores, and five seats with two people and three bots. The published
// record replays exactly.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { replayRecord } from '../bot-engine/record.ts';
import { Client, createGame, get, playUntilOver, post, type Injected, injectServer } from './server-helpers.ts';

let server: Injected;
before(async () => {
  server = await injectServer();
});
after(async () => {
  await server.app.close();
});

async function checkRecord(id: string, final: any): Promise<void> {
  const rec = await get(server.base, `/api/games/${id}/record`);
  assert.equal(rec.status, 200);
  assert.equal(rec.body.format, 'tessera-game/1');
  assert.equal(rec.body.final, true);
  const { scores } = replayRecord(rec.body);
  assert.deepEqual(
    Object.values(scores),
    final.seats.map((s: any) => s.score),
  );
}

test('a person plays a bot over WebSocket to the final scores', async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const me = await Client.join(server.ws, id, tokens.get(0));
  const first = await me.peekState();
  assert.equal(first.view.you, 0);
  assert.equal(first.view.status, 'playing');
  assert.equal(typeof first.view.tile, 'string');
  assert.ok(!('bag' in first.view), 'the bag never leaves the server');
  const final = await playUntilOver(new Map([[0, me]]));
  assert.equal(final.status, 'finished');
  assert.equal(final.tilesLeft, 0);
  assert.equal(final.tile, null);
  assert.equal(final.legal, null);
  for (const s of final.seats) assert.equal(s.score, s.points.city + s.points.road + s.points.monastery + s.points.farm);
  assert.ok(final.board.length > 60);
  await checkRecord(id, final);
  const pool = await get(server.base, '/api/pool');
  assert.ok(pool.body.counters.botMoves.search > 30, 'bot moves came from the pool');
  // The route's response schema drops nothing the pool reports (fastify serialises with it).
  const served = fieldPaths(pool.body);
  for (const path of fieldPaths(server.app.pool.summary())) assert.ok(served.has(path), `/api/pool serves ${path}`);
  assert.ok(served.has('tasks.cpuMs.p99') && served.has('eventLoop.lastMinute.delayMs.max') && served.has('counters.botMoves.search'));
  me.close();
});

test('five seats: two people and three bots; a sixth seat is refused', async () => {
  const six = await post(server.base, '/api/games', { seats: [{ kind: 'person' }, ...Array(5).fill({ kind: 'bot', level: 'random' })] });
  assert.equal(six.status, 400);
  assert.match(six.body.message, /at most 5 players/);
  // People in the second and the fifth seat (each joins naming its seat).
  const { id, tokens } = await createGame(server.base, [
    { kind: 'bot', level: 'random' },
    { kind: 'person' },
    { kind: 'bot', level: 'greedy' },
    { kind: 'bot', level: 'heuristic' },
    { kind: 'person' },
  ]);
  const a = await Client.join(server.ws, id, tokens.get(1));
  const b = await Client.join(server.ws, id, tokens.get(4));
  const watcher = await Client.join(server.ws, id);
  const final = await playUntilOver(
    new Map([
      [1, a],
      [4, b],
    ]),
  );
  assert.equal(final.seats.length, 5);
  assert.deepEqual(
    final.seats.map((s: any) => s.kind),
    ['bot', 'person', 'bot', 'bot', 'person'],
  );
  // Seven followers each, fifth seat included: in the supply or standing on the board.
  for (const seat of final.seats) assert.equal(seat.followers + final.followers.filter((f: any) => f.player === seat.seat).length, 7, `seat ${seat.seat}`);
  // A watcher sees every move but never a list of legal placements (the last frame may still be on its way).
  watcher.frames.push(await watcher.next((f) => f.type === 'state' && f.view.status === 'finished'));
  const seen = watcher.frames.filter((f) => f.type === 'state');
  assert.ok(seen.length > 60);
  assert.ok(seen.every((f) => f.view.legal === null && f.view.you === null));
  const bySeat = new Set(seen.map((f) => f.last?.seat).filter((s) => s !== undefined));
  assert.deepEqual([...bySeat].sort(), [0, 1, 2, 3, 4]);
  await checkRecord(id, final);
  // Someone who arrives now gets the whole game in the welcome, as the live frames showed it.
  const live = new Map<number, any>();
  for (const f of seen) if (f.last) live.set(f.last.turn, { ...f.last, bot: undefined });
  const late = await Client.join(server.ws, id);
  const welcome = late.welcome;
  assert.deepEqual(
    welcome.history.map((m: any) => ({ ...m, bot: undefined })),
    [...live.values()],
  );
  assert.ok(
    welcome.history.at(-1).events.some((e: any) => e.phase === 'final'),
    'final scoring comes with the last tile',
  );
  for (const c of [a, b, watcher, late]) c.close();
});

/** Dotted paths of every field (an array contributes its first element's fields). */
function fieldPaths(value: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) return value.length ? fieldPaths(value[0], `${prefix}[]`, out) : out;
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    out.add(path);
    fieldPaths(v, path, out);
  }
  return out;
}
