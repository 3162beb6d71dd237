// The Abbot played: garden types replacing one copy of their plain twins, the abbot on a
// monastery or garden only, gardens scored like monasteries (hand-made positions, numbers derived
// in comments), taking the abbot back, records; and every option combined: random games under
// every combination replay to the same state, legal moves against a brute force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Move, legalMoves, newGame, playMove, pointsByKind } from '../bot-engine/game.ts';
import type { GameState } from '../bot-engine/state.ts';
import { type Rules, type ScoreEvent, bagEmpty, discardUnplaceable, drawType, finalScoring, place } from '../bot-engine/rules.ts';
import { TYPE_NAMES, tileIndex } from '../bot-engine/tiles.ts';
import { playRandomGame, randomMove } from '../bot-engine/playout.ts';
import { Rng } from '../bot-engine/rng.ts';
import { replayRecord, toRecord } from '../bot-engine/record.ts';
import { bruteForceMoves, moveKey } from './support/expansion-moves.ts';

const ABBOT: Rules = { tinyCity: false, farmers: '3rd', abbot: true };

function put(s: GameState, tile: string, x: number, y: number, rotation: number, extra: Partial<Move> = {}, events?: ScoreEvent[]): void {
  assert.ok(drawType(s, tileIndex(tile)), `a ${tile} is left`);
  const outcome = playMove(s, { x, y, rotation, meeple: null, ...extra }, false);
  assert.ok(!('error' in outcome), `${tile} at ${x},${y}: ${'error' in outcome ? outcome.error : ''}`);
  events?.push(...outcome.events);
}
const refusal = (s: GameState, tile: string, move: Move) => {
  drawType(s, tileIndex(tile));
  const outcome = playMove(s, move, false);
  assert.ok('error' in outcome, JSON.stringify(move));
  return outcome.error;
};

test('the Abbot moves one copy of E, H, I, M, N, R, U, V to its garden twin; the bag still holds 71', () => {
  const s = newGame({ players: 2, rules: ABBOT, seed: 'gardens' });
  assert.equal(s.tilesLeft, 71);
  const names = Array.from(s.bag.subarray(0, 71), (t) => TYPE_NAMES[t]);
  for (const [plain, n] of [
    ['E', 5],
    ['H', 3],
    ['I', 2],
    ['M', 2],
    ['N', 3],
    ['R', 3],
    ['U', 8],
    ['V', 9],
  ] as const) {
    assert.equal(names.filter((x) => x === plain).length, n - 1, plain);
    assert.equal(names.filter((x) => x === `${plain}g`).length, 1, `${plain}g`);
  }
  for (let p = 0; p < 2; p++) assert.deepEqual([s.followers(p), s.largeFollowers(p), s.abbots(p)], [7, 0, 1]);
});

// Vg (V: road S-W, and a garden) turned 0° at (1,0): its road W meets D's road E.
test('the abbot stands only on a monastery or garden, and a follower never on a garden', () => {
  const s = newGame({ players: 2, rules: ABBOT, seed: 'where' });
  assert.match(refusal(s, 'Vg', { x: 1, y: 0, rotation: 0, meeple: 'garden' }), /only the abbot may stand on "garden"/);
  assert.match(refusal(s, 'Vg', { x: 1, y: 0, rotation: 0, meeple: 'road:S', figure: 'abbot' }), /the abbot stands only on a monastery or a garden/);
  assert.match(refusal(s, 'Vg', { x: 1, y: 0, rotation: 0, meeple: null, returnAbbot: true }), /your abbot is not on the board/);
  const base = newGame({ players: 2, seed: 'where' });
  assert.match(refusal(base, 'V', { x: 1, y: 0, rotation: 0, meeple: 'road:S', figure: 'abbot' }), /the abbot needs rules.abbot/);
  put(s, 'Vg', 1, 0, 0, { meeple: 'garden', figure: 'abbot' });
  assert.equal(s.abbots(0), 0);
  put(s, 'A', 1, 1, 180, { meeple: 'monastery' }); // seat 1 may put a monk on a monastery as ever
  assert.match(refusal(s, 'B', { x: 2, y: 1, rotation: 0, meeple: 'monastery', figure: 'abbot' }), /no abbot left in the supply/);
});

test('a garden with its abbot at the end: 1 + each neighbouring tile, as a monastery', () => {
  const s = newGame({ players: 2, rules: ABBOT, seed: 'garden-end' });
  put(s, 'Vg', 1, 0, 0, { meeple: 'garden', figure: 'abbot' }); // seat 0; one neighbour: D
  const events: ScoreEvent[] = [];
  finalScoring(s, events);
  // 1 for the garden's own tile + 1 neighbour = 2, under the monastery column, marked a garden.
  assert.equal(s.score(0), 2);
  assert.equal(pointsByKind(s, 0).monastery, 2);
  assert.deepEqual(events, [{ players: [0], kind: 'monastery', points: 2, phase: 'final', tiles: 2, garden: true }]);
});

// Around Vg at (1,0): E turned 180° (city S) at (0,-1) on D's city; B (all field) at (1,-1),
// (2,-1), (2,0) and (0,1); A turned 180° (road N) at (1,1) on Vg's road S; A turned 0° (road S) at
// (2,1). With D at (0,0) that is all 8 neighbours. U at (-1,0) is a pass for seat 1, so that seat 0
// places the last one.
test('a garden completed in play scores 9 and its abbot comes home; taking it back then is refused', () => {
  const s = newGame({ players: 2, rules: ABBOT, seed: 'garden-full' });
  put(s, 'Vg', 1, 0, 0, { meeple: 'garden', figure: 'abbot' }); // seat 0
  put(s, 'U', -1, 0, 0); // seat 1
  put(s, 'E', 0, -1, 180);
  put(s, 'B', 1, -1, 0);
  put(s, 'B', 2, -1, 0);
  put(s, 'B', 2, 0, 0);
  put(s, 'A', 2, 1, 0);
  put(s, 'A', 1, 1, 180); // seat 1: 7 neighbours, 1 missing
  assert.equal(s.score(0), 0);
  assert.match(refusal(s, 'B', { x: 0, y: 1, rotation: 0, meeple: null, returnAbbot: true }), /completes your abbot's monastery or garden/);
  const events: ScoreEvent[] = [];
  put(s, 'B', 0, 1, 0, {}, events); // seat 0: the 8th neighbour: 9
  assert.deepEqual(events, [{ players: [0], kind: 'monastery', points: 9, phase: 'play', tiles: 9, garden: true }]);
  assert.deepEqual([s.score(0), s.abbots(0)], [9, 1]);
});

// Vg at (1,0) with the abbot; B at (1,-1) (seat 1); then seat 0 puts E turned 180° at (0,-1) and
// takes the abbot back: neighbours D, B, and E just placed = 3, so 1 + 3 = 4.
test('taking the abbot back scores its garden as it stands, the tile just placed included, and replays', () => {
  const s = newGame({ players: 2, rules: ABBOT, seed: 'back' });
  put(s, 'Vg', 1, 0, 0, { meeple: 'garden', figure: 'abbot' });
  put(s, 'B', 1, -1, 0);
  assert.match(refusal(s, 'E', { x: 0, y: -1, rotation: 180, meeple: 'city:S', returnAbbot: true }), /meeple must be null/);
  const events: ScoreEvent[] = [];
  put(s, 'E', 0, -1, 180, { returnAbbot: true }, events);
  assert.deepEqual(events, [{ players: [0], kind: 'monastery', points: 4, phase: 'play', tiles: 4, garden: true }]);
  assert.deepEqual([s.score(0), s.abbots(0)], [4, 1]);
  const record = toRecord(s, ['a', 'b'], 'back');
  assert.deepEqual(record.moves, [
    { tile: 'Vg', x: 1, y: 0, rotation: 0, meeple: 'garden', figure: 'abbot' },
    { tile: 'B', x: 1, y: -1, rotation: 0, meeple: null },
    { tile: 'E', x: 0, y: -1, rotation: 180, meeple: null, returnAbbot: true },
  ]);
  const replay = replayRecord(JSON.parse(JSON.stringify(record)));
  assert.ok(Buffer.from(replay.state.bytes).equals(Buffer.from(s.bytes)));
  assert.deepEqual(replay.scores, { a: 4, b: 0 });
});

const ALL: Rules[] = [];
for (const river of [false, true])
  for (const innsCathedrals of [false, true])
    for (const abbot of [false, true])
      for (const [tinyCity, farmers] of [
        [false, '3rd'],
        [true, '2nd'],
        [false, '1st'],
      ] as const)
        ALL.push({ tinyCity, farmers, ...(river ? { river } : {}), ...(innsCathedrals ? { innsCathedrals } : {}), ...(abbot ? { abbot } : {}) });

test('random games under every combination of options, 2–6 seats where allowed, replay to the same state and scores', () => {
  let returned = 0;
  let abbots = 0;
  for (const [i, rules] of ALL.entries()) {
    for (let players = 2; players <= (rules.innsCathedrals ? 6 : 5); players++) {
      const seed = `all-${i}-${players}`;
      const s = newGame({ players, rules, seed });
      playRandomGame(s, new Rng(i * 7 + players));
      const names = Array.from({ length: players }, (_, p) => `p${p}`);
      const record = toRecord(s, names, seed);
      assert.deepEqual(record.rules, rules);
      returned += record.moves.filter((m) => 'returnAbbot' in m).length;
      abbots += record.moves.filter((m) => 'figure' in m && m.figure === 'abbot').length;
      const replay = replayRecord(JSON.parse(JSON.stringify(record)));
      assert.ok(Buffer.from(replay.state.bytes).equals(Buffer.from(s.bytes)), seed);
      assert.deepEqual(
        Object.values(replay.scores),
        names.map((_, p) => s.score(p)),
        seed,
      );
    }
  }
  assert.ok(abbots > 50 && returned > 10, `abbots placed ${abbots}, taken back ${returned}`);
});

test('legal moves with every option on equal a brute force over every cell × rotation × spot × figure, taking the abbot back included', () => {
  let back = 0;
  let abbot = 0;
  for (let g = 0; g < 8; g++) {
    const rules: Rules = { tinyCity: g % 2 === 1, farmers: '3rd', innsCathedrals: true, abbot: true, ...(g % 4 < 2 ? { river: true } : {}) };
    const s = newGame({ players: 2 + (g % 5), rules, seed: `abbot-moves-${g}` });
    const rng = new Rng(900 + g);
    discardUnplaceable(s);
    while (!bagEmpty(s)) {
      const listed = new Set(legalMoves(s).map(moveKey));
      const river = TYPE_NAMES[s.currentTile].startsWith('R') && TYPE_NAMES[s.currentTile].length > 1;
      if (!river) assert.deepEqual(listed, bruteForceMoves(s), `game ${g}, tile ${s.placed}`);
      back += [...listed].filter((k) => k.endsWith(',back')).length;
      abbot += [...listed].filter((k) => k.endsWith(',abbot')).length;
      const m = randomMove(s, rng, 0.8);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
    }
  }
  assert.ok(back > 50 && abbot > 20, `moves taking the abbot back ${back}, abbot moves ${abbot}`);
});
