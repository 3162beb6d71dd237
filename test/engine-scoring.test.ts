// Hand-built scenarios for every scoring rule and edge case, played as records so the
// record validation path is exercised too. Board: start tile D at (0,0) — city north,
// road west–east, field south.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type GameRecord, type RecordMove, replayRecord, RecordError } from '../bot-engine/record.ts';
import type { Rules } from '../bot-engine/rules.ts';
import { resolveMove } from '../bot-engine/game.ts';
import { drawType } from '../bot-engine/rules.ts';
import { tileIndex } from '../bot-engine/tiles.ts';

const P = (tile: string, x: number, y: number, rotation: number, meeple: string | null = null): RecordMove => ({ tile, x, y, rotation, meeple });

function replay(moves: RecordMove[], opts: { final?: boolean; rules?: Partial<Rules>; players?: string[] } = {}) {
  const record: GameRecord = { format: 'tessera-game/1', players: opts.players ?? ['Alice', 'Bob'], moves, final: opts.final ?? false, ...(opts.rules ? { rules: opts.rules } : {}) };
  return replayRecord(record);
}

function failure(fn: () => unknown): RecordError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RecordError) return e;
    throw e;
  }
  assert.fail('expected a RecordError');
}

test('road loop of four curves completes and scores 4 for its owner', () => {
  const r = replay([P('V', 0, 1, 270, 'road:E'), P('V', 1, 1, 0), P('V', 1, 2, 90), P('V', 0, 2, 180)]);
  assert.deepEqual(
    r.events.map((e) => [e.kind, e.players, e.points, e.phase, e.moveIndex]),
    [['road', ['Alice'], 4, 'play', 3]],
  );
  assert.equal(r.state.followers(0), 7, 'the follower came home');
});

test('a road that leaves a junction and comes back counts the junction tile once', () => {
  // W at (0,1): roads E; S; W end at its junction. E and S are joined by three curves.
  const r = replay([P('W', 0, 1, 0, 'road:E'), P('V', 1, 1, 0), P('V', 1, 2, 90), P('V', 0, 2, 180)]);
  assert.deepEqual(
    r.events.map((e) => [e.kind, e.points, e.tiles]),
    [['road', 4, 4]],
  );
});

test('a city entering one tile through two separate segments counts that tile once', () => {
  // I at (0,1) rotated 180: cities E and S, separate; three N tiles close the ring.
  const r = replay([P('I', 0, 1, 180, 'city:E'), P('N', 1, 1, 270), P('N', 1, 2, 0), P('N', 0, 2, 90)]);
  assert.deepEqual(
    r.events.map((e) => [e.kind, e.players, e.points, e.tiles]),
    [['city', ['Alice'], 8, 4]],
  );
});

test('a follower placed on a feature it completes scores and returns at once; tinyCity halves a two-tile city', () => {
  const moves = [P('E', 0, -1, 180, 'city:S')];
  const normal = replay(moves);
  assert.deepEqual(normal.scores, { Alice: 4, Bob: 0 });
  assert.equal(normal.state.followers(0), 7);
  assert.deepEqual(replay(moves, { rules: { tinyCity: true } }).scores, { Alice: 2, Bob: 0 });
  // A three-tile city is not tiny.
  const three = [P('F', 0, -1, 90, 'city:N'), P('E', 0, -2, 180)];
  assert.equal(replay(three, { rules: { tinyCity: true } }).scores.Alice, 2 * 3 + 2);
});

// Roads: Alice's U west of the start, Bob's V south of it, joined by two curves east.
const tieMoves = [P('U', -1, 0, 0, 'road:W'), P('V', 0, 1, 270, 'road:E'), P('V', 1, 0, 0), P('V', 1, 1, 90)];

test('tied majorities both score in full (final scoring of an open road)', () => {
  const r = replay(tieMoves, { final: true });
  assert.deepEqual(r.scores, { Alice: 5, Bob: 5 });
  assert.deepEqual(
    r.events.map((e) => [e.kind, e.players, e.points, e.phase]),
    [['road', ['Alice', 'Bob'], 5, 'final']],
  );
});

test('two followers of one player on one feature score it once, and outvote one', () => {
  // Alice owns both roads that the last curve joins.
  const alone = replay([P('U', -1, 0, 0, 'road:W'), P('E', 0, -1, 180), P('V', 0, 1, 270, 'road:E'), P('V', 1, 0, 0), P('V', 1, 1, 90)], { final: true });
  assert.deepEqual(alone.scores, { Alice: 5, Bob: 0 });
  // Alice's two roads and Bob's one end up as one 8-tile road: 2 against 1.
  const outvoted = replay([P('U', -1, 0, 0, 'road:W'), P('V', -1, 1, 0, 'road:S'), P('V', 0, 1, 270, 'road:E'), P('V', 0, 2, 90), P('V', -1, 2, 180), P('V', 1, 0, 0), P('V', 1, 1, 90)], {
    final: true,
  });
  assert.deepEqual(outvoted.scores, { Alice: 8, Bob: 0 });
});

test('three players take turns in order; a tie on a joined road pays both', () => {
  const r = replay([P('U', -1, 0, 0, 'road:W'), P('W', 1, 0, 0, 'road:S'), P('E', 0, -1, 180), P('V', 0, 1, 270, 'road:E'), P('U', -2, 0, 0), P('V', 1, 1, 90)], {
    final: true,
    players: ['Alice', 'Bob', 'Carol'],
  });
  // Alice: the west road (U, U, D, junction) alone = 4; the curve road E-S, joined to Bob's, 1 vs 1 = 3 each.
  assert.deepEqual(r.scores, { Alice: 4 + 3, Bob: 3, Carol: 0 });
});

test('occupancy: a feature joined to an occupied one refuses a follower; a separate one accepts', () => {
  const r = replay([P('U', -1, 0, 0, 'road:W')]);
  const s = r.state;
  drawType(s, tileIndex('U'));
  assert.match((resolveMove(s, { x: 1, y: 0, rotation: 0, meeple: 'road:E' }) as { error: string }).error, /already has a follower/);
  assert.ok(!('error' in resolveMove(s, { x: 1, y: 0, rotation: 0, meeple: 'field:SE' })));
  const e = failure(() => replay([P('U', -1, 0, 0, 'road:W'), P('U', 1, 0, 0, 'road:W')]));
  assert.equal(e.moveIndex, 1);
});

test('monastery: 9 when surrounded in play, 1 + neighbours at the end', () => {
  const ring = [P('B', 0, 1, 0, 'monastery'), P('U', -1, 0, 0), P('U', 1, 0, 0), P('B', -1, 1, 0), P('B', 1, 1, 0), P('B', 0, 2, 0), P('E', -1, 2, 180), P('E', 1, 2, 180)];
  const done = replay(ring);
  assert.deepEqual(
    done.events.map((e) => [e.kind, e.players, e.points, e.moveIndex]),
    [['monastery', ['Alice'], 9, 7]],
  );
  assert.equal(done.state.followers(0), 7);
  const open = replay([P('B', 0, 1, 0, 'monastery'), P('B', 1, 1, 0)], { final: true });
  assert.deepEqual(open.scores, { Alice: 3, Bob: 0 }); // itself + D + the B east of it
});

// Farms. C1 = D's city closed by E(0,-1); C2 = two caps at (0,-2), (0,-3).
// F_E (Alice): fields of E(0,-1)+E(0,-2), touching C1 and C2. F_up (Alice): D's north field
// + U(1,0)'s, touching C1. F_E3 (Bob): E(0,-3)'s field, touching C2.
const farmMoves = [P('E', 0, -1, 180, 'field:NE'), P('E', 0, -2, 0), P('U', 1, 0, 0, 'field:NE'), P('E', 0, -3, 180, 'field:NW')];

test('farms, 3rd edition: 3 per completed city per farm; one city feeds two farms; a farm feeds on two cities', () => {
  const r = replay(farmMoves, { final: true });
  assert.deepEqual(r.scores, { Alice: 6 + 3, Bob: 3 });
  assert.deepEqual(
    r.events
      .filter((e) => e.kind === 'farm')
      .map((e) => [e.players, e.points])
      .sort(),
    [
      [['Alice'], 3],
      [['Alice'], 6],
      [['Bob'], 3],
    ],
  );
});

test('farms, 2nd edition: a city pays each player at most once across farms', () => {
  assert.deepEqual(replay(farmMoves, { final: true, rules: { farmers: '2nd' } }).scores, { Alice: 6, Bob: 3 });
});

test('farms, 1st edition: each completed city pays 4 to the most farmers around it (ties share)', () => {
  assert.deepEqual(replay(farmMoves, { final: true, rules: { farmers: '1st' } }).scores, { Alice: 8, Bob: 4 });
});

test('farmers never return; incomplete cities score 1 per tile and pennant at the end', () => {
  const r = replay([P('U', 1, 0, 0, 'field:NE'), P('F', 0, -1, 90, 'city:S')], { final: true });
  assert.equal(r.state.followers(0), 6);
  assert.equal(r.state.followers(1), 6);
  // F rotated 90: city N+S with pennant, joined to D's: 2 tiles + 1 pennant, still open to the north.
  assert.equal(r.scores.Bob, 3);
  assert.equal(r.scores.Alice, 0); // the city is not complete: the farm earns nothing
});

test('illegal placements are refused with the move index and a reason', () => {
  const cases: [RecordMove[], RegExp][] = [
    [[P('E', 5, 5, 0)], /does not touch/],
    [[P('E', 0, 0, 0)], /already holds a tile/],
    [[P('E', 0, 1, 0)], /does not match/],
    [[P('E', 0, -1, 45)], /rotation must be/],
    [[P('E', 0, -1, 180, 'road:S')], /no follower spot/],
    [[P('C', 0, -1, 0), P('C', 0, -2, 0)], /no C tile is left/],
    [[P('Z', 0, -1, 0)], /unknown tile/],
    [[{ discard: 'X' }], /may not be discarded/],
  ];
  for (const [moves, pattern] of cases) {
    const e = failure(() => replay(moves));
    assert.match(e.message, pattern);
    assert.equal(e.moveIndex, moves.length - 1);
  }
});

test('records with a bad header are refused without a move index', () => {
  const bad = [
    null,
    [],
    { format: 'x', players: ['a', 'b'], moves: [] },
    { format: 'tessera-game/1', players: [], moves: [] },
    { format: 'tessera-game/1', players: ['a', 'b', 'c', 'd', 'e', 'f'], moves: [] },
    { format: 'tessera-game/1', players: ['a', 'a'], moves: [] },
    { format: 'tessera-game/1', players: ['a', 'b'], moves: [], rules: { farmers: '4th' } },
  ];
  for (const record of bad) {
    const e = failure(() => replayRecord(record));
    assert.equal(e.moveIndex, undefined);
  }
});

test('records hold 1 to 5 players: a solo record plays every move itself, a fifth seat moves fifth and scores', () => {
  const solo = replay([P('V', 0, 1, 270, 'road:E'), P('V', 1, 1, 0), P('V', 1, 2, 90), P('V', 0, 2, 180)], { players: ['Solo'] });
  assert.deepEqual(solo.scores, { Solo: 4 });
  assert.deepEqual(
    solo.steps.map((s) => s.seat),
    [0, 0, 0, 0],
  );
  // Five seats: the fifth (seat 4) closes a road loop with its follower on it; seat 0 moves next.
  const five = replay([P('V', 0, 1, 270), P('V', 1, 1, 0), P('V', 1, 2, 90), P('U', -1, 0, 0), P('V', 0, 2, 180, 'road:N'), P('U', -2, 0, 0)], { players: ['A', 'B', 'C', 'D', 'E'] });
  assert.deepEqual(
    five.steps.map((s) => s.seat),
    [0, 1, 2, 3, 4, 0],
  );
  assert.deepEqual(five.scores, { A: 0, B: 0, C: 0, D: 0, E: 4 });
  assert.equal(five.state.followers(4), 7, 'the follower came home');
});
