// Inns & Cathedrals played end to end: inns and cathedrals on hand-made positions (expected
// numbers derived in the comments), the large follower in majorities, six seats; whole random
// games under every rule combination replay to the same state; legal moves with the large
// follower against a brute force (every cell × rotation × spot × figure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Move, legalMoves, newGame, playMove, pointsByKind, resolveMove } from '../bot-engine/game.ts';
import { type GameState, followersOf, ownerFigure, ownerPlayer } from '../bot-engine/state.ts';
import { type Rules, bagEmpty, discardUnplaceable, drawType, finalScoring, find, place } from '../bot-engine/rules.ts';
import { MAX_SEGMENTS, ROT_SPOT_LOOKUP, ROT_SPOT_NAMES, tileIndex } from '../bot-engine/tiles.ts';
import { playRandomGame, randomMove } from '../bot-engine/playout.ts';
import { Rng } from '../bot-engine/rng.ts';
import { RecordError, replayRecord, toRecord } from '../bot-engine/record.ts';
import { bruteForceMoves, moveKey } from './support/expansion-moves.ts';

const INNS: Rules = { tinyCity: false, farmers: '3rd', innsCathedrals: true };

/** Draws `tile` and plays it (no discards, no final scoring: a hand-made position). */
function put(s: GameState, tile: string, x: number, y: number, rotation: number, meeple: string | null = null, figure?: Move['figure']): void {
  assert.ok(drawType(s, tileIndex(tile)), `a ${tile} is left`);
  const outcome = playMove(s, { x, y, rotation, meeple, ...(figure ? { figure } : {}) }, false);
  assert.ok(!('error' in outcome), `${tile} at ${x},${y}: ${'error' in outcome ? outcome.error : ''}`);
}

// D, the start tile at (0,0): city N, road W-E. A turned 90° has its road on W, turned 270° on E
// (rotations turn clockwise, so edge d shows the letter of edge d - k): each ends a road.
test('a road with an inn, completed: 2 a tile', () => {
  for (const [middle, perTile] of [
    ['IP', 2],
    ['U', 1],
  ] as const) {
    const s = newGame({ players: 2, rules: INNS, seed: 'inn-road' });
    put(s, middle, 1, 0, 0, 'road:E'); // seat 0: IP (road W-E, the inn) or plain U, a follower on the road
    put(s, 'A', 2, 0, 90); // seat 1: the road ends at a monastery, east
    put(s, 'A', -1, 0, 270); // seat 0: and west: A, D, IP, A = 4 tiles, complete
    // With the inn 4 × 2 = 8; the same road of plain tiles 4 × 1 = 4.
    assert.equal(s.score(0), 4 * perTile, middle);
    assert.equal(pointsByKind(s, 0).road, 4 * perTile);
    assert.equal(s.followers(0), 7, 'the follower came home');
  }
});

test('a road with an inn left unfinished at the end: 0 (a plain one scores 1 a tile)', () => {
  for (const [middle, points] of [
    ['IP', 0],
    ['U', 3],
  ] as const) {
    const s = newGame({ players: 2, rules: INNS, seed: 'inn-open' });
    put(s, middle, 1, 0, 0, 'road:E');
    put(s, 'A', 2, 0, 90); // east end closed; D's west end stays open: D, middle, A = 3 tiles
    const events: { kind: string; points: number; inn?: true }[] = [];
    finalScoring(s, events as never);
    assert.equal(s.score(0), points, middle);
    // One road event either way: the inn's is sent at 0 points, named, so a player sees why.
    assert.deepEqual(
      events.filter((e) => e.kind === 'road').map((e) => [e.points, e.inn ?? false]),
      [[points, middle === 'IP']],
    );
  }
});

// IA (cathedral, one city on all four edges) at (0,-1) above D's city; E (city on N only) caps
// each other side: E turned 180° (city S) at (0,-2), 270° (city W) at (1,-1), 90° (city E) at (-1,-1).
test('a city with a cathedral, completed: 3 a tile; the large follower comes home', () => {
  const s = newGame({ players: 2, rules: INNS, seed: 'cathedral' });
  put(s, 'IA', 0, -1, 0, 'city:N', 'large'); // seat 0, the large follower
  assert.equal(s.largeFollowers(0), 0);
  put(s, 'E', 0, -2, 180);
  put(s, 'E', 1, -1, 270);
  put(s, 'E', -1, -1, 90); // D, IA and three E = 5 tiles, no pennant: 5 × 3 = 15
  assert.equal(s.score(0), 15);
  assert.equal(pointsByKind(s, 0).city, 15);
  assert.equal(s.largeFollowers(0), 1, 'back in the supply');
  assert.equal(s.followers(0), 7);
});

test('a cathedral city with a pennant: 3 a pennant too', () => {
  // F (cities E+W as one, pennant) turned 90° has its city N+S: at (0,-2) it joins IA's N edge
  // and leaves a city edge open at (0,-3), which E (turned 180°, city S) closes.
  const s = newGame({ players: 2, rules: INNS, seed: 'cathedral-pennant' });
  put(s, 'IA', 0, -1, 0, 'city:N');
  put(s, 'F', 0, -2, 90);
  put(s, 'E', 0, -3, 180);
  put(s, 'E', 1, -1, 270);
  put(s, 'E', -1, -1, 90); // D, IA, F and three E = 6 tiles, 1 pennant: 6 × 3 + 1 × 3 = 21
  assert.equal(s.score(0), 21);
});

test('a cathedral city left unfinished at the end: 0 (a plain one scores 1 a tile)', () => {
  const s = newGame({ players: 2, rules: INNS, seed: 'cathedral-open' });
  put(s, 'IA', 0, -1, 0, 'city:N'); // D + IA, three edges open
  finalScoring(s);
  assert.equal(s.score(0), 0);
  const plain = newGame({ players: 2, rules: INNS, seed: 'cathedral-open' });
  put(plain, 'C', 0, -1, 0, 'city:N'); // C (four-sided city, pennant): D + C, unfinished: 2 tiles + 1 pennant = 3
  finalScoring(plain);
  assert.equal(plain.score(0), 3);
});

// One road: A(-1,0) – D(0,0) – U(1,0) – V(2,0) – V(2,1) – V(1,1) – A(1,2). V (road S-W) turned 0°
// runs S-W, 90° N-W, 270° E-S; A turned 180° has its road N.
test("the large follower counts two: it beats one follower alone, and the points aren't doubled", () => {
  const s = newGame({ players: 2, rules: INNS, seed: 'large' });
  put(s, 'U', 1, 0, 0, 'road:E', 'large'); // seat 0: large follower on D's road (strength 2)
  put(s, 'V', 1, 1, 270, 'road:E'); // seat 1: a road of its own, E-S (strength 1)
  put(s, 'V', 2, 0, 0); // seat 0: U's road turns south
  put(s, 'V', 2, 1, 90); // seat 1: and joins seat 1's road: one road, 2 against 1
  const root = find(s, (s.placed - 1) * MAX_SEGMENTS + ROT_SPOT_LOOKUP[tileIndex('V') * 4 + 1].get('road:N')!);
  assert.deepEqual([followersOf(s, root, 0), followersOf(s, root, 1)], [2, 1]);
  put(s, 'A', -1, 0, 270); // seat 0: west end
  put(s, 'A', 1, 2, 180); // seat 1: south end: complete, 7 tiles, 1 a tile = 7, to seat 0 only
  assert.deepEqual([s.score(0), s.score(1)], [7, 0]);
  assert.deepEqual([s.largeFollowers(0), s.followers(0), s.followers(1)], [1, 7, 7]);
});

// The farm: D's south field, U(0,1)'s north field (turned 0°: road W-E, fields north and south),
// U's south field, B(0,2) (monastery in one field), A(-1,1) turned 270° (the road ends on its E
// edge, its one field joins U's north and south fields round the road's end), E(0,3) turned 180°
// (city S, its field N) against E(0,4) (city N): a two-tile city, completed.
test('the large follower counts two on a farm: 2 against 1, the farm pays its owner only', () => {
  const s = newGame({ players: 2, rules: INNS, seed: 'farm' });
  put(s, 'U', 0, 1, 0, 'field:NE', 'large'); // seat 0: large farmer on D's south field + U's north field
  put(s, 'B', 0, 2, 0, 'field:NE'); // seat 1: a farmer on U's south field + B's field
  put(s, 'A', -1, 1, 270); // seat 0: joins the two farms: 2 against 1
  put(s, 'E', 0, 3, 180); // seat 1
  put(s, 'E', 0, 4, 0); // seat 0: the city of E + E completes (nobody on it)
  assert.deepEqual([s.score(0), s.score(1)], [0, 0]);
  finalScoring(s);
  // One completed city touches the farm: 3 (3rd edition), to seat 0 alone (2 > 1; counted as
  // one it would be a tie and pay both). Nothing else holds a figure.
  assert.deepEqual([s.score(0), s.score(1)], [3, 0]);
  assert.equal(pointsByKind(s, 0).farm, 3);
});

test('six seats with Inns & Cathedrals, five without; the sixth player plays', () => {
  assert.throws(() => newGame({ players: 6, seed: 'six' }), /a game has 1 to 5 players \(6 with Inns & Cathedrals\)/);
  const s = newGame({ players: 6, rules: INNS, seed: 'six' });
  for (let p = 0; p < 6; p++) assert.deepEqual([s.followers(p), s.largeFollowers(p), s.abbots(p)], [7, 1, 0]);
  assert.throws(() => newGame({ players: 7, rules: INNS, seed: 'six' }), /1 to 6 players/);
  const names = ['a', 'b', 'c', 'd', 'e', 'f'];
  assert.throws(
    () => replayRecord({ format: 'tessera-game/1', players: names, seed: 'x', moves: [] }),
    (e: unknown) => e instanceof RecordError && /1 to 5 names \(6 with rules.innsCathedrals\)/.test(e.message),
  );
  playRandomGame(s, new Rng(6));
  const replay = replayRecord(toRecord(s, names, 'six'));
  assert.ok(Buffer.from(replay.state.bytes).equals(Buffer.from(s.bytes)));
  assert.ok(Object.values(replay.scores).some((v) => v > 0));
});

test('the large follower is refused without the option, from an empty supply, or on a taken feature; a refused move changes nothing', () => {
  const base = newGame({ players: 2, seed: 'refuse' });
  const m = legalMoves(base).find((x) => x.meeple !== null)!;
  const error = (s: GameState, move: Move) => (playMove(s, move) as { error: string }).error;
  assert.match(error(base, { ...m, figure: 'large' }), /the large follower needs rules.innsCathedrals/);
  assert.match(error(base, { ...m, figure: 'giant' as never }), /figure must be "follower", "large" or "abbot"/);
  const s = newGame({ players: 2, rules: INNS, seed: 'refuse' });
  assert.match(error(s, { ...legalMoves(s)[0], meeple: null, figure: 'large' }), /give a spot, or neither/);
  put(s, 'U', 1, 0, 0, 'road:E', 'large'); // seat 0's large follower on D's road
  put(s, 'U', 2, 0, 0); // seat 1
  drawType(s, tileIndex('U'));
  const before = Buffer.from(s.bytes);
  assert.match(error(s, { x: 3, y: 0, rotation: 0, meeple: 'field:NE', figure: 'large' }), /no large follower left/);
  assert.match(error(s, { x: 3, y: 0, rotation: 0, meeple: 'road:E' }), /already has a follower/);
  assert.ok(Buffer.from(s.bytes).equals(before), 'refused moves changed nothing');
});

const COMBOS: Rules[] = [];
for (const tinyCity of [false, true]) for (const farmers of ['1st', '2nd', '3rd'] as const) COMBOS.push({ tinyCity, farmers, innsCathedrals: true });

test('random games with Inns & Cathedrals under every rule combination, 2–6 seats, replay to the same state and scores', () => {
  let large = 0;
  for (const [i, rules] of COMBOS.entries()) {
    for (let players = 2; players <= 6; players++) {
      const seed = `inns-${i}-${players}`;
      const s = newGame({ players, rules, seed });
      playRandomGame(s, new Rng(i * 10 + players));
      assert.ok(s.finished);
      const names = Array.from({ length: players }, (_, p) => `p${p}`);
      const record = toRecord(s, names, seed);
      assert.deepEqual(record.rules, { tinyCity: rules.tinyCity, farmers: rules.farmers, innsCathedrals: true });
      large += record.moves.filter((m) => 'figure' in m && m.figure === 'large').length;
      const replay = replayRecord(JSON.parse(JSON.stringify(record)));
      assert.ok(Buffer.from(replay.state.bytes).equals(Buffer.from(s.bytes)), `${seed}: byte for byte`);
      assert.deepEqual(
        Object.values(replay.scores),
        names.map((_, p) => s.score(p)),
      );
      // Every figure is in a supply or on the board.
      for (let p = 0; p < players; p++) {
        let followers = 0;
        let larges = 0;
        for (let n = 0; n < s.placed * MAX_SEGMENTS; n++) {
          if (s.owner[n] < 0 || ownerPlayer(s.owner[n]) !== p) continue;
          if (ownerFigure(s.owner[n]) === 1) larges++;
          else followers++;
        }
        assert.deepEqual([s.followers(p) + followers, s.largeFollowers(p) + larges], [7, 1], `${seed}: seat ${p}'s figures`);
      }
    }
  }
  assert.ok(large > 20, `large followers were played (${large})`);
});

test('legal moves with the large follower equal a brute force over every cell × rotation × spot × figure', () => {
  let withLarge = 0;
  for (let g = 0; g < 8; g++) {
    const s = newGame({ players: 2 + (g % 5), rules: COMBOS[g % COMBOS.length], seed: `inns-moves-${g}` });
    const rng = new Rng(500 + g);
    discardUnplaceable(s);
    while (!bagEmpty(s)) {
      const listed = new Set(legalMoves(s).map(moveKey));
      assert.deepEqual(listed, bruteForceMoves(s), `game ${g}, tile ${s.placed}`);
      withLarge += [...listed].filter((k) => k.endsWith(',large')).length;
      // Every spot name a record may use (any side or corner) resolves like the listed one.
      const type = s.currentTile;
      for (const key of listed) {
        const [x, y, rotation, meeple, figure] = key.split(',');
        if (meeple === '-') continue;
        const tr = type * 4 + Number(rotation) / 90;
        for (const [alias, local] of ROT_SPOT_LOOKUP[tr]) {
          if (ROT_SPOT_NAMES[tr][local] !== meeple || alias === meeple) continue;
          const resolved = resolveMove(s, { x: Number(x), y: Number(y), rotation: Number(rotation), meeple: alias, figure: figure as Move['figure'] });
          assert.ok(!('error' in resolved), `${alias} names ${meeple}`);
        }
      }
      const m = randomMove(s, rng, 0.6);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
    }
  }
  assert.ok(withLarge > 100, `large-follower moves were listed (${withLarge})`);
});
