// Protocol version 2 without a server: the frames the room serialises (server/games/view.ts) for a
// whole engine game, folded by the client's tracker (server/wire/delta.ts), give exactly the views
// the whole frames carry; a gap or a delta that does not follow asks for a sync.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { legalPlacements, newGame, playMove } from '../bot-engine/game.ts';
import type { GameState } from '../bot-engine/state.ts';
import { ViewFrames, type ViewInput } from '../server/games/view.ts';
import { ViewTracker } from '../server/wire/delta.ts';
import type { LastMove } from '../server/wire/game.ts';

const input = (state: GameState, turn: number, botThinking = false): ViewInput => ({
  gameId: 'g',
  status: state.finished ? 'finished' : 'playing',
  rules: { tinyCity: false, farmers: '3rd' },
  turn,
  state,
  seats: [0, 1].map((seat) => ({ name: `P${seat}`, kind: 'person' as const, connected: true, standIn: null })),
  botThinking,
  clock: { turnSeconds: null, deadline: null },
  rematch: null,
  abandoned: false,
  hintsOn: false,
  rated: false,
  hints: [],
});

test('a whole game folded from deltas ends, frame for frame, at the views whole frames give', () => {
  const state = newGame({ players: 2, seed: 'client-views' });
  const tracker = new ViewTracker();
  let seq = 0;
  let boardAt = state.placed;
  tracker.state(JSON.parse(new ViewFrames(input(state, 0), 0, null, seq, boardAt).state(true)));
  let turn = 0;
  for (let i = 0; !state.finished; i++) {
    const placements = legalPlacements(state);
    const p = placements[i % placements.length];
    const outcome = playMove(state, { x: p.x, y: p.y, rotation: p.rotation, meeple: p.meeples[0] ?? null });
    assert.ok(!('error' in outcome));
    const last: LastMove = { turn, seat: 0, tile: 'A', move: outcome.move, events: outcome.events, discarded: outcome.discarded };
    turn += 1 + outcome.discarded.length;
    seq++;
    const frames = new ViewFrames(input(state, turn, i % 3 === 0), 0, last, seq, boardAt);
    boardAt = state.placed;
    const delta = JSON.parse(frames.delta());
    const whole = JSON.parse(frames.state(false));
    assert.equal(delta.seq, seq);
    assert.ok(!('board' in delta.view), 'a delta carries no board');
    assert.deepEqual(tracker.delta(delta), whole.view, `turn ${turn}: the folded view is the whole one`);
    assert.ok(frames.delta().length < frames.state(false).length);
  }
  assert.equal(tracker.view?.status, 'finished');
  assert.equal(tracker.view?.board.length, state.placed);
});

test('a skipped seq or a board that does not match asks for one sync, and the whole view ends it', () => {
  const state = newGame({ players: 2, seed: 'client-views-gap' });
  const tracker = new ViewTracker();
  const first = JSON.parse(new ViewFrames(input(state, 0), 0, null, 5, state.placed).state(true));
  tracker.state(first);
  const p = legalPlacements(state)[0];
  playMove(state, { x: p.x, y: p.y, rotation: p.rotation, meeple: null });
  const from = first.view.board.length;
  const skipped = JSON.parse(new ViewFrames(input(state, 1), 0, null, 7, from).delta());
  assert.equal(tracker.delta(skipped), 'sync', 'seq 7 after 5: a frame was missed');
  assert.equal(tracker.delta(JSON.parse(new ViewFrames(input(state, 1), 0, null, 8, from).delta())), null, 'deltas wait for the sync');
  const whole = JSON.parse(new ViewFrames(input(state, 1), 0, null, 8, from).state(true));
  assert.deepEqual(tracker.state(whole), whole.view);
  const wrongBoard = JSON.parse(new ViewFrames(input(state, 1), 0, null, 9, from - 1).delta());
  assert.equal(tracker.delta(wrongBoard), 'sync', 'a delta from another board length does not apply');

  const fresh = new ViewTracker();
  assert.equal(fresh.delta(JSON.parse(new ViewFrames(input(state, 1), 0, null, 1, 0).delta())), 'sync', 'a delta before any whole view');
});
