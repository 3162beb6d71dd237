// The expansions through the server (in-process, over app.inject and app.injectWS): the create
// API takes the rule options and a sixth seat only with Inns & Cathedrals; views carry the new
// figures' supplies and spots; a person places the large follower over WebSocket; the published
// record names the options and the figures and replays to the scores the players saw.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { replayRecord } from '../bot-engine/record.ts';
import { Client, createGame, get, type Injected, injectServer, playUntilOver, post } from './server-helpers.ts';

let server: Injected;
before(async () => {
  server = await injectServer();
});
after(async () => {
  await server.app.close();
});

const bots = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'bot' as const, level: (['random', 'greedy', 'heuristic'] as const)[i % 3] }));

test('a sixth seat needs Inns & Cathedrals; an unknown option is refused', async () => {
  const six = [{ kind: 'person' }, ...bots(5)];
  const without = await post(server.base, '/api/games', { seats: six });
  assert.equal(without.status, 400);
  assert.match(without.body.message, /at most 5 players \(6 with Inns & Cathedrals\)/);
  const notBoolean = await post(server.base, '/api/games', { seats: six.slice(0, 2), rules: { river: 'yes' } });
  assert.equal(notBoolean.status, 400);
  assert.match(notBoolean.body.message, /river/);
  const unknown = await post(server.base, '/api/games', { seats: six, rules: { innsCathedrals: true, tunnels: true } });
  assert.equal(unknown.status, 400);
  const listed = await get(server.base, '/api/games?limit=200');
  assert.equal(listed.status, 200);
  const created = await post(server.base, '/api/games', { seats: six, rules: { innsCathedrals: true } });
  assert.equal(created.status, 201);
  const game = await get(server.base, `/api/games/${created.body.id}`);
  assert.deepEqual(game.body.rules, { tinyCity: false, farmers: '3rd', innsCathedrals: true });
  assert.equal(game.body.seats.length, 6);
});

test('Inns & Cathedrals over WebSocket: six seats, a large follower placed by a person, the record replays', async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, ...bots(5)], undefined, { rules: { innsCathedrals: true } });
  const me = await Client.join(server.ws, id, tokens.get(0));
  const first = (await me.peekState()).view;
  assert.deepEqual(
    first.seats.map((s: any) => [s.followers, s.large, s.abbots]),
    Array(6).fill([7, 1, undefined]),
    'seven followers and one large follower each; no abbot without its option',
  );
  // A figure the game's options do not have is refused with a clear error and changes nothing.
  // A field, where it stays: on a city or road the move may complete, it would score and come back.
  const spot = first.legal.find((p: any) => p.large.some((s: string) => s.startsWith('field'))) ?? first.legal.find((p: any) => p.large.length > 0);
  assert.ok(spot, 'the first tile has a spot for the large follower somewhere');
  const large = spot.large.find((s: string) => s.startsWith('field')) ?? spot.large[0];
  me.send({ type: 'move', turn: first.turn, move: { x: spot.x, y: spot.y, rotation: spot.rotation, meeple: large, figure: 'abbot' }, id: 1 });
  const refused = await me.next((f) => f.type === 'error');
  assert.match(refused.message, /abbot needs rules\.abbot/);
  me.send({ type: 'move', turn: first.turn, move: { x: spot.x, y: spot.y, rotation: spot.rotation, meeple: large, figure: 'large' }, id: 2 });
  const after = await me.next((f) => (f.type === 'state' || f.type === 'delta') && f.last?.seat === 0);
  const view = after.view;
  assert.deepEqual(after.last.move, { x: spot.x, y: spot.y, rotation: spot.rotation, meeple: large, figure: 'large' });
  assert.equal(view.seats[0].followers, 7);
  const standing = view.followers.filter((f: any) => f.player === 0 && f.figure === 'large' && f.x === spot.x && f.y === spot.y).length;
  assert.equal(view.seats[0].large + standing, 1, 'the large follower is on the board, or back after scoring at once');
  if (large.startsWith('field')) assert.equal(standing, 1);
  // Only the frames before the move go: the bots' answers queued since may already be the
  // person's turn again, the frame playUntilOver moves on.
  me.frames.splice(0, me.frames.findLastIndex((f) => f.type === 'state' && f.view.turn < view.turn) + 1);
  const final = await playUntilOver(new Map([[0, me]]), 120_000);
  assert.equal(final.status, 'finished');
  // Every figure is in its supply or on the board at the end.
  for (const seat of final.seats) {
    const standing = final.followers.filter((f: any) => f.player === seat.seat);
    assert.equal(seat.followers + standing.filter((f: any) => !f.figure).length, 7, `seat ${seat.seat} followers`);
    assert.equal(seat.large + standing.filter((f: any) => f.figure === 'large').length, 1, `seat ${seat.seat} large follower`);
  }
  const record = (await get(server.base, `/api/games/${id}/record`)).body;
  assert.deepEqual(record.rules, { tinyCity: false, farmers: '3rd', innsCathedrals: true });
  assert.ok(record.moves.some((m: any) => m.figure === 'large'));
  assert.ok(record.moves.length > 80, 'the Inns & Cathedrals tiles are in the bag');
  const { scores } = replayRecord(record);
  assert.deepEqual(
    Object.values(scores),
    final.seats.map((s: any) => s.score),
  );
  // Someone arriving now sees the figures in the game's history as they were played.
  const late = await Client.join(server.ws, id);
  assert.ok(late.welcome.history.some((m: any) => m.move.figure === 'large'));
  late.close();
  me.close();
});

test('all three expansions at six seats, played to the end by a person and bots: every figure accounted for, the record replays', async () => {
  const rules = { innsCathedrals: true, river: true, abbot: true };
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, ...bots(5)], undefined, { rules });
  const me = await Client.join(server.ws, id, tokens.get(0));
  const first = (await me.peekState()).view;
  assert.deepEqual(first.rules, { tinyCity: false, farmers: '3rd', ...rules });
  assert.deepEqual(first.seats[0].abbots, 1);
  assert.equal(first.board[0].tile, 'RA', 'the spring is the start tile');
  const final = await playUntilOver(new Map([[0, me]]), 120_000);
  for (const seat of final.seats) {
    const standing = final.followers.filter((f: any) => f.player === seat.seat);
    assert.equal(seat.followers + standing.filter((f: any) => !f.figure).length, 7, `seat ${seat.seat} followers`);
    assert.equal(seat.large + standing.filter((f: any) => f.figure === 'large').length, 1, `seat ${seat.seat} large follower`);
    assert.equal(seat.abbots + standing.filter((f: any) => f.figure === 'abbot').length, 1, `seat ${seat.seat} abbot`);
  }
  const record = (await get(server.base, `/api/games/${id}/record`)).body;
  assert.deepEqual(record.rules, { tinyCity: false, farmers: '3rd', ...rules });
  assert.ok(
    record.moves.some((m: any) => m.figure === 'abbot'),
    'an abbot was placed',
  );
  const { scores } = replayRecord(record);
  assert.deepEqual(
    Object.values(scores),
    final.seats.map((s: any) => s.score),
  );
  me.close();
});
