// When the bots take the abbot back (docs/RULES.md, "The abbot"): hand-made positions where a
// sensible player does (a garden that cannot grow any more, turns still left to use the abbot
// again) and where they do not (the garden's last neighbour can still come; early, the garden
// growing cheaply). Each level is asked for its move as in test/bots-decisions.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseMove } from '../bot-engine/bots/index.ts';
import { type Move, legalMoves, newGame, playMove, resolvedToMove } from '../bot-engine/game.ts';
import { type Rules, drawType, hideBag } from '../bot-engine/rules.ts';
import { H_BAGLEN, H_BAGPOS, type GameState } from '../bot-engine/state.ts';
import { tileIndex } from '../bot-engine/tiles.ts';

const ABBOT: Rules = { tinyCity: false, farmers: '3rd', abbot: true };
const LEVELS = ['heuristic', 'hard', 'expert'] as const;

function put(s: GameState, tile: string, x: number, y: number, rotation: number, extra: Partial<Move> = {}): void {
  assert.ok(drawType(s, tileIndex(tile)), `a ${tile} is left`);
  const outcome = playMove(s, { x, y, rotation, meeple: null, ...extra }, false);
  assert.ok(!('error' in outcome), `${tile} at ${x},${y}: ${'error' in outcome ? outcome.error : ''}`);
}

/** Late in the game: only `current` and then `rest` are left in the bag (what the bots see is
 * its contents, so the order does not matter). */
function leaveInBag(s: GameState, current: string, rest: string[]): void {
  const pos = s.h[H_BAGPOS];
  for (let j = pos; j < s.h[H_BAGLEN]; j++) s.remaining[s.bag[j]]--;
  const types = [current, ...rest].map(tileIndex);
  for (const [i, t] of types.entries()) {
    s.bag[pos + i] = t;
    s.remaining[t]++;
  }
  s.h[H_BAGLEN] = pos + types.length;
}

const choices = (s: GameState) => LEVELS.map((level) => [level, resolvedToMove(s, chooseMove(hideBag(s.clone()), level, 1))] as const);

// Seat 0's abbot on Vg (road S-W, a garden) at (1,0); seat 0's follower on the road U (-1,0) –
// D – Vg – A turned 180° at (1,1), which ends on A's monastery and is open at (-2,0). B at (0,1),
// (1,-1), (2,-1), (2,0) and A at (2,1): the garden has 7 of its 8 neighbours. The missing one,
// (0,-1), touches D's city from the north, so only a tile with a city edge can go there.
function gardenMissingACity(): GameState {
  const s = newGame({ players: 2, rules: ABBOT, seed: 'abbot-back' });
  put(s, 'Vg', 1, 0, 0, { meeple: 'garden', figure: 'abbot' }); // seat 0
  put(s, 'B', 0, 1, 0); // seat 1
  put(s, 'U', -1, 0, 0, { meeple: 'road:E' }); // seat 0
  put(s, 'B', 1, -1, 0);
  put(s, 'B', 2, -1, 0);
  put(s, 'B', 2, 0, 0);
  put(s, 'A', 2, 1, 0);
  put(s, 'A', 1, 1, 180); // seat 1; seat 0 to move
  assert.equal(s.currentPlayer, 0);
  return s;
}
const ROADS_AND_GARDENS = ['U', 'V', 'V', 'U', 'A', 'Vg', 'Ug', 'U', 'V', 'V', 'U', 'V', 'U', 'V', 'B', 'V'];

// 17 tiles left, none with a city: the garden stays at 1 + 7 = 8 whatever happens, so its abbot
// earns nothing more by staying, while back in the supply it can still go on one of the A, B, Vg
// and Ug to come. X at (-2,0) closes seat 0's road (5 tiles, the follower comes home) and, with
// the abbot taken back, the garden's 8 are scored now: the move every level should make.
test('late, a garden that can no longer grow: heuristic, hard and expert close their road and take the abbot back', () => {
  const s = gardenMissingACity();
  leaveInBag(s, 'X', ROADS_AND_GARDENS);
  assert.equal(s.tilesLeft, 17);
  for (const [level, move] of choices(s)) assert.deepEqual([move.x, move.y, move.returnAbbot], [-2, 0, true], `${level}: ${JSON.stringify(move)}`);
  const after = s.clone();
  assert.ok(!('error' in playMove(after, { x: -2, y: 0, rotation: 0, meeple: null, returnAbbot: true }, false)));
  assert.deepEqual([after.score(0), after.abbots(0), after.followers(0)], [5 + 8, 1, 7]);
});

// The same board, but four E (a city edge) among the 17: (0,-1) may still be filled, the garden
// then completes for 9 and the abbot comes home anyway. Taking it back now would give up that
// point for nothing, so every level keeps the abbot where it is.
test('the same garden while its last neighbour can still come: no level takes the abbot back', () => {
  const s = gardenMissingACity();
  leaveInBag(s, 'X', ['U', 'V', 'E', 'U', 'A', 'Vg', 'Ug', 'E', 'V', 'V', 'U', 'E', 'U', 'V', 'B', 'E']);
  assert.ok(
    legalMoves(s).some((m) => m.returnAbbot),
    'taking the abbot back is on offer',
  );
  for (const [level, move] of choices(s)) assert.equal(move.returnAbbot, undefined, `${level}: ${JSON.stringify(move)}`);
});

// Early: the abbot on Vg at (1,0) with two neighbours (D, and B at (1,-1)), 69 tiles to come.
// Taking it back scores at most 1 + 3 = 4 now; left there, the garden is expected to fill
// towards 9 with tiles anyone lays. Every level keeps it (and uses the X for a follower).
test('early, the garden still growing cheaply: no level takes the abbot back', () => {
  const s = newGame({ players: 2, rules: ABBOT, seed: 'abbot-keep' });
  put(s, 'Vg', 1, 0, 0, { meeple: 'garden', figure: 'abbot' });
  put(s, 'B', 1, -1, 0);
  assert.ok(drawType(s, tileIndex('X')));
  assert.equal(s.tilesLeft, 69);
  assert.ok(
    legalMoves(s).some((m) => m.returnAbbot),
    'taking the abbot back is on offer',
  );
  for (const [level, move] of choices(s)) assert.equal(move.returnAbbot, undefined, `${level}: ${JSON.stringify(move)}`);
});
