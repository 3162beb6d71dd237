// The game screen's state without a browser: placements chosen from a real position's legal
// list, rotation and cycling rules, and the log built from moves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardTiles, legalPlacements, newGame, playMove } from '../bot-engine/game.ts';
import { tilesInBag } from '../client/src/game/bag-count.ts';
import { GameScreenState } from '../client/src/game/state.ts';
import type { GameView, LastMove, SeatView } from '../server/wire/game.ts';

const seats: SeatView[] = [0, 1].map((seat) => ({
  seat,
  name: `P${seat}`,
  kind: 'person',
  connected: true,
  standIn: null,
  score: 0,
  followers: 7,
  points: { city: 0, road: 0, farm: 0, monastery: 0 },
}));

function viewOf(turn: number, legal: GameView['legal'], you = 0): GameView {
  return {
    gameId: 'g',
    status: 'playing',
    rules: { tinyCity: false, farmers: '3rd' },
    turn,
    you,
    seats,
    currentSeat: 0,
    tile: 'D',
    tilesLeft: 71,
    board: [],
    followers: [],
    legal,
    botThinking: false,
    clock: { turnSeconds: null, deadline: null },
    rematch: null,
    abandoned: false,
    hints: false,
  };
}

test('selecting, rotating and cycling only ever land on legal placements', () => {
  const game = newGame({ players: 2, seed: 'client-state' });
  playMove(game, { ...legalPlacements(game)[0], meeple: null });
  const legal = legalPlacements(game);
  const s = new GameScreenState();
  s.apply(viewOf(1, legal), null);
  assert.ok(s.canPlace());
  const isLegal = () => legal.some((p) => p.x === s.selection!.x && p.y === s.selection!.y && p.rotation === s.selection!.rotation);
  assert.equal(s.select(50, 50), false, 'a cell far away fits nothing');
  const cells = new Set(legal.map((p) => `${p.x},${p.y}`));
  for (let i = 0; i < cells.size + 1; i++) {
    s.cycle(1);
    assert.ok(isLegal());
    for (let k = 0; k < 4; k++) {
      const refused = s.rotate(1);
      assert.ok(isLegal());
      if (refused) assert.equal(s.legalRotations(s.selection!.x, s.selection!.y).length, 1);
    }
  }
  const withSpot = legal.find((p) => p.meeples.length > 0)!;
  s.select(withSpot.x, withSpot.y);
  s.selection!.rotation = withSpot.rotation;
  s.toggleSpot(withSpot.meeples[0]);
  assert.equal(s.selection!.meeple, withSpot.meeples[0]);
  s.toggleSpot(withSpot.meeples[0]);
  assert.equal(s.selection!.meeple, null, 'the same spot again takes the follower off');
  // A new turn clears the selection and the pending flag.
  s.pending = true;
  s.apply(viewOf(2, null), null);
  assert.equal(s.selection, null);
  assert.equal(s.pending, false);
  assert.equal(s.canPlace(), false);
});

test('with Inns & Cathedrals the large follower is chosen like a follower, on the spots open to it', () => {
  const rules = { innsCathedrals: true } as const;
  const game = newGame({ players: 2, seed: 'client-figures', rules });
  const legal = legalPlacements(game);
  const s = new GameScreenState();
  s.apply({ ...viewOf(0, legal), rules: { tinyCity: false, farmers: '3rd', innsCathedrals: true } }, null);
  const p = legal.find((l) => (l.large ?? []).length > 0)!;
  assert.ok(p, 'some placement offers the large follower');
  s.select(p.x, p.y);
  s.selection!.rotation = p.rotation;
  assert.deepEqual(s.figures(), ['follower', 'large']);
  assert.deepEqual(s.spots(), p.meeples, 'a new selection is for the follower');
  s.setSpot(p.meeples[0]);
  s.setFigure('large');
  assert.equal(s.selection!.figure, 'large');
  assert.deepEqual(s.spots(), p.large);
  assert.equal(s.selection!.meeple, p.large!.includes(p.meeples[0]) ? p.meeples[0] : null, 'the spot stays only where the large follower may stand');
  s.setFigure('abbot');
  assert.equal(s.selection!.figure, 'large', 'no abbot without its option');
  s.setFigure('large');
  assert.equal(s.selection!.figure, 'follower', 'asking again goes back to the follower');
  // Another cell starts the figure over.
  s.setFigure('large');
  s.cycle(1);
  assert.notDeepEqual([s.selection!.x, s.selection!.y], [p.x, p.y]);
  assert.equal(s.selection!.figure, 'follower');
});

test('with the Abbot, taking the abbot back is a choice of the placements that allow it, and excludes a figure', () => {
  const rules = { abbot: true } as const;
  const game = newGame({ players: 2, seed: 'client-abbot', rules });
  // Seeded random play until the mover may take an abbot back somewhere.
  let legal = legalPlacements(game);
  for (let i = 0; !legal.some((p) => p.canReturnAbbot); i++) {
    assert.ok(i < 200, 'an abbot to take back within 200 moves');
    const withAbbot = legal.find((p) => (p.abbot ?? []).length > 0);
    const move = withAbbot ? { ...withAbbot, meeple: withAbbot.abbot![0], figure: 'abbot' as const } : { ...legal[i % legal.length], meeple: null };
    playMove(game, { x: move.x, y: move.y, rotation: move.rotation, meeple: move.meeple, ...('figure' in move ? { figure: move.figure } : {}) });
    legal = legalPlacements(game);
  }
  const s = new GameScreenState();
  s.apply({ ...viewOf(1, legal), rules: { tinyCity: false, farmers: '3rd', abbot: true }, currentSeat: game.currentPlayer, you: game.currentPlayer }, null);
  const p = legal.find((l) => l.canReturnAbbot)!;
  s.select(p.x, p.y);
  s.selection!.rotation = p.rotation;
  assert.ok(s.mayReturnAbbot());
  if (p.meeples.length) s.setSpot(p.meeples[0]);
  s.toggleReturnAbbot();
  assert.equal(s.selection!.returnAbbot, true);
  assert.equal(s.selection!.meeple, null, 'taking the abbot back places no figure');
  if (p.meeples.length) {
    s.setSpot(p.meeples[0]);
    assert.equal(s.selection!.returnAbbot, false, 'placing a figure gives it up');
  }
  const without = legal.find((l) => !l.canReturnAbbot);
  if (without) {
    s.select(without.x, without.y);
    s.selection!.rotation = without.rotation;
    s.toggleReturnAbbot();
    assert.equal(s.selection!.returnAbbot, false, 'not where the placement does not allow it');
  }
});

test('the log lists each move once, newest first, its scorings and discards above it', () => {
  const s = new GameScreenState();
  const move = (turn: number, extra: Partial<LastMove> = {}): LastMove => ({
    turn,
    seat: turn % 2,
    tile: 'D',
    move: { x: turn, y: 0, rotation: 0, meeple: null },
    events: [],
    discarded: [],
    ...extra,
  });
  s.history = [move(0), move(1)];
  s.apply(viewOf(3, null), move(2, { events: [{ players: [0], kind: 'road', points: 3, phase: 'play', tiles: 3 }], discarded: ['L'], bot: { source: 'search', level: 'hard', elapsedMs: 120 } }));
  s.apply(viewOf(3, null), move(2)); // the same move repeated by a later frame
  assert.deepEqual(
    s.log.map((e) => [e.turn, e.kind]),
    [
      [2, 'discard'],
      [2, 'score'],
      [2, 'move'],
      [1, 'move'],
      [0, 'move'],
    ],
  );
  assert.match(s.log[2].detail.join(), /thought 120 ms/);
  assert.equal(s.lastBot?.ms, 120);
  assert.deepEqual(s.lastBySeat.get(0), { x: 2, y: 0, turn: 2 });
});

test("others' tiles stay fresh until this player acts; discards and the board leave the bag", () => {
  const game = newGame({ players: 2, seed: 'client-fresh' });
  const s = new GameScreenState();
  const moveOf = (turn: number, seat: number): LastMove => {
    const p = legalPlacements(game)[0];
    const out = playMove(game, { ...p, meeple: null });
    assert.ok(!('error' in out));
    return { turn, seat, tile: boardTiles(game).find((t) => t.x === p.x && t.y === p.y)!.tile, move: out.move, events: out.events, discarded: out.discarded };
  };
  const view = (turn: number): GameView => ({ ...viewOf(turn, legalPlacements(game)), board: boardTiles(game), tile: null, status: 'playing' });
  const mine = moveOf(0, 0);
  s.apply(view(1), mine);
  assert.equal(s.fresh.size, 0, 'my own tile is not news');
  const theirs = moveOf(1, 1);
  s.apply(view(2), theirs);
  assert.deepEqual([...s.fresh], [`${theirs.move.x},${theirs.move.y}`]);
  s.apply(view(2), theirs);
  assert.equal(s.fresh.size, 1, 'the same frame again changes nothing');
  const p = legalPlacements(game)[0];
  s.select(p.x, p.y);
  assert.equal(s.fresh.size, 0, 'choosing a cell is acting');
  // The bag: the 72 tiles less the board and the discards.
  s.discarded.push('X');
  const bag = tilesInBag(view(2), s.discarded);
  let left = 0;
  for (const n of bag.values()) left += n;
  assert.equal(left, 72 - boardTiles(game).length - 1);
  assert.equal(bag.get('X'), 0);
});

test('the tiles-left panel counts the game set of its rules: 72, or with every expansion the river and Inns & Cathedrals tiles too', () => {
  const count = (bag: Map<string, number>) => [...bag.values()].reduce((a, b) => a + b, 0);
  for (const [rules, size] of [
    [{}, 72],
    [{ innsCathedrals: true }, 90],
    [{ innsCathedrals: true, river: true, abbot: true }, 101],
  ] as const) {
    const game = newGame({ players: 2, seed: `bag-${size}`, rules });
    const full = { tinyCity: false, farmers: '3rd' as const, ...rules };
    const bag = tilesInBag({ ...viewOf(0, legalPlacements(game)), rules: full, board: boardTiles(game), tile: null, status: 'waiting' }, []);
    assert.equal(count(bag), size - 1, `${JSON.stringify(rules)}: every tile but the start tile`);
    assert.equal(bag.has('IA'), 'innsCathedrals' in rules, 'the Inns & Cathedrals tiles only with their option');
    assert.equal(bag.has('RB'), 'river' in rules, 'the lake only with the River');
  }
});
