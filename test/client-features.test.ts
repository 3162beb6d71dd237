// Features across tiles as the client computes them from the board (client/src/game/features.ts),
// checked against the engine's own scoring: in whole seeded games, every scoring of a completed
// road, city or monastery is matched to a complete feature of that kind and size through the
// placed tile, and every follower's feature holds that follower's spot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boardTiles, followersOnBoard, legalPlacements, newGame, playMove } from '../bot-engine/game.ts';
import { TILES } from '../bot-engine/tiles.ts';
import { segmentDefs } from '../client/src/art.ts';
import { BoardIndex, finalScored } from '../client/src/game/features.ts';

test('every scoring during play is matched to a complete feature of its kind and size', () => {
  let matched = 0;
  for (const seed of ['k1', 'k2', 'k3', 'k4']) {
    const s = newGame({ players: 3, seed });
    for (let i = 0; !s.finished && i < 80; i++) {
      const legal = legalPlacements(s);
      const p = legal[(i * 7) % legal.length];
      const out = playMove(s, { x: p.x, y: p.y, rotation: p.rotation, meeple: p.meeples[i % (p.meeples.length + 1)] ?? null });
      assert.ok(!('error' in out));
      const index = new BoardIndex(boardTiles(s));
      const features = index.scoredBy(p.x, p.y, out.events);
      out.events.forEach((e, j) => {
        const f = features[j];
        if (e.phase !== 'play') {
          assert.equal(f, null);
          return;
        }
        assert.ok(f, `seed ${seed} move ${i}: ${e.kind} of ${e.tiles} tiles found`);
        assert.equal(f.kind, e.kind);
        assert.equal(f.tiles, e.tiles);
        assert.ok(f.complete);
        matched++;
      });
      // Followers stand on the feature the board finds for their spot.
      for (const fo of followersOnBoard(s)) {
        const f = index.featureOfSpot(fo.x, fo.y, fo.spot);
        assert.ok(f?.parts.some((q) => q.x === fo.x && q.y === fo.y));
        if (f?.kind === 'city' || f?.kind === 'road') assert.equal(f.complete, false, 'a follower on a completed feature went home');
      }
    }
  }
  assert.ok(matched >= 10, `${matched} scorings matched`);
});

test('the start tile alone: its features are one tile each; one shape per tile segment is defined', () => {
  const s = newGame({ players: 2, seed: 'fields' });
  const index = new BoardIndex(boardTiles(s));
  for (const spot of ['city:N', 'road:W', 'field:SE', 'field:NE']) {
    const f = index.featureOfSpot(0, 0, spot);
    assert.equal(f?.parts.length, 1, spot);
    assert.equal(f?.complete, false, spot);
  }
  assert.equal(index.featureOfSpot(0, 0, 'monastery'), null);
  const defs = segmentDefs();
  assert.equal(
    (defs.match(/<g id="seg-/g) ?? []).length,
    TILES.reduce((n, t) => n + t.segments.length, 0),
  );
  assert.equal(
    (defs.match(/<mask /g) ?? []).length,
    TILES.reduce((n, t) => n + t.segments.filter((g) => g.kind === 2).length, 0),
    'a mask per field',
  );
});

test('every final scoring is matched to a feature its players hold, farms by their cities', () => {
  let matched = 0;
  for (const seed of ['f1', 'f2', 'f3']) {
    const s = newGame({ players: 2, seed });
    let events: ReturnType<typeof playMove> | null = null;
    for (let i = 0; !s.finished; i++) {
      const legal = legalPlacements(s);
      // Followers often (fields included), so the final scoring has work to do.
      const p = legal[(i * 5) % legal.length];
      events = playMove(s, { x: p.x, y: p.y, rotation: p.rotation, meeple: p.meeples[i % p.meeples.length] ?? null });
    }
    assert.ok(events && !('error' in events));
    const finals = events.events.filter((e) => e.phase === 'final');
    const found = finalScored(new BoardIndex(boardTiles(s)), followersOnBoard(s), events.events);
    events.events.forEach((e, j) => {
      if (e.phase !== 'final') return;
      const f = found[j];
      assert.ok(f, `seed ${seed}: final ${e.kind} for ${e.players} (${e.tiles}) found`);
      assert.equal(f.kind, e.kind === 'farm' ? 'field' : e.kind);
      matched++;
    });
    assert.ok(finals.length > 0);
  }
  assert.ok(matched >= 6, `${matched} final scorings matched`);
});
