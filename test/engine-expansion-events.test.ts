// The scoring events of Inns & Cathedrals name the modifier that set the points, so players (and
// the end-of-game replay) see an inn or a cathedral at work, even when it makes a feature worth 0.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newGame } from '../bot-engine/game.ts';
import { playRandomGame } from '../bot-engine/playout.ts';
import type { ScoreEvent } from '../bot-engine/rules.ts';
import { Rng } from '../bot-engine/rng.ts';

test('inn and cathedral events: 2 a tile and 3 a tile and pennant completed, 0 left unfinished, sent even at 0', () => {
  const seen = { innDone: 0, innOpen: 0, cathedralDone: 0, cathedralOpen: 0 };
  for (let g = 0; g < 60; g++) {
    const s = newGame({ players: 2 + (g % 5), seed: `events-${g}`, rules: { innsCathedrals: true } });
    const events: ScoreEvent[] = [];
    playRandomGame(s, new Rng(`events-${g}`), events);
    for (const e of events) {
      if (e.inn) {
        assert.equal(e.kind, 'road');
        // A completed road with an inn: 2 a tile; left unfinished at the end: nothing.
        if (e.phase === 'play') assert.equal(e.points, 2 * e.tiles, JSON.stringify(e));
        else assert.equal(e.points, 0, JSON.stringify(e));
        seen[e.phase === 'play' ? 'innDone' : 'innOpen']++;
      }
      if (e.cathedral) {
        assert.equal(e.kind, 'city');
        // Completed: 3 a tile and 3 a pennant, so at least 3 a tile; unfinished: nothing.
        if (e.phase === 'play') assert.ok(e.points >= 3 * e.tiles && e.points % 3 === 0, JSON.stringify(e));
        else assert.equal(e.points, 0, JSON.stringify(e));
        seen[e.phase === 'play' ? 'cathedralDone' : 'cathedralOpen']++;
      }
      if (!e.inn && !e.cathedral) assert.ok(e.points > 0, 'other features send an event only when they pay');
    }
  }
  // Random play seldom closes a cathedral city (the hand-made positions of the scoring tests do).
  for (const k of ['innDone', 'innOpen', 'cathedralOpen'] as const) assert.ok(seen[k] > 0, `${k}: ${seen[k]}`);
});

test('a base game sends no modifier and no zero-point event', () => {
  const s = newGame({ players: 3, seed: 'events-base' });
  const events: ScoreEvent[] = [];
  playRandomGame(s, new Rng('events-base'), events);
  assert.ok(events.length > 10);
  assert.ok(events.every((e) => !('inn' in e) && !('cathedral' in e) && e.points > 0));
});
