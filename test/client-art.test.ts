// The browser client's tile art and words, without a browser: every follower spot the engine
// can name has a place on its tile, spots of one tile never sit on top of each other, rotation
// moves them the way the board rotates the art, and the SVG of every tile holds what its row of
// RULES.md says (cities with walls, roads, monastery, pennant).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ROT_SPOT_LOOKUP, ROT_SPOT_NAMES, TILES, TILE_NAMES } from '../bot-engine/tiles.ts';
import { PLAYER_COLORS, PLAYER_GLYPHS, meepleIcon, meepleMarkup, rotatePoint, spotDirection, spotPosition, spotSegment, tileDefs, tileMarkup } from '../client/src/art.ts';
import { eventText, glyphName, moveText, moveWhere, rulesText, seatLabel, spotLabel, tileWords } from '../client/src/text.ts';
import { MAX_SEATS } from '../bot-engine/state.ts';

const ROTATIONS = [0, 90, 180, 270];

test('every spot name of every tile and rotation has a position inside the tile', () => {
  for (const [t, name] of TILE_NAMES.entries()) {
    for (const r of ROTATIONS) {
      for (const spot of ROT_SPOT_LOOKUP[t * 4 + r / 90].keys()) {
        const p = spotPosition(name, r, spot);
        assert.ok(p, `${name}@${r} ${spot}`);
        for (const c of p.at) assert.ok(c >= 5 && c <= 95, `${name}@${r} ${spot} at ${p.at}`);
      }
    }
  }
});

test('aliases of one feature share a position; different features are apart', () => {
  for (const [t, name] of TILE_NAMES.entries()) {
    for (const r of ROTATIONS) {
      const lookup = ROT_SPOT_LOOKUP[t * 4 + r / 90];
      const bySegment = new Map<number, [number, number]>();
      for (const [spot, seg] of lookup) {
        const at = spotPosition(name, r, spot)!.at;
        const seen = bySegment.get(seg);
        if (seen) assert.deepEqual(at, seen, `${name}@${r}: ${spot} is the same feature`);
        else bySegment.set(seg, at);
        assert.equal(spotSegment(name, r, spot), seg);
      }
      const points = [...bySegment.values()];
      for (let i = 0; i < points.length; i++)
        for (let j = i + 1; j < points.length; j++) {
          const d = Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]);
          assert.ok(d >= 14, `${name}@${r}: two spots only ${d.toFixed(1)} apart`);
        }
    }
  }
});

test('a spot turns with the tile: its position at r is the 0° position rotated by r', () => {
  for (const [t, name] of TILE_NAMES.entries()) {
    const names0 = ROT_SPOT_NAMES[t * 4];
    for (const r of ROTATIONS) {
      const names = ROT_SPOT_NAMES[t * 4 + r / 90];
      names.forEach((spot, local) => {
        const expected = rotatePoint(spotPosition(name, 0, names0[local])!.at, r / 90);
        const got = spotPosition(name, r, spot)!.at;
        assert.ok(Math.abs(got[0] - expected[0]) < 1e-9 && Math.abs(got[1] - expected[1]) < 1e-9, `${name}@${r} ${spot}`);
      });
    }
  }
  // Board orientation: a road that leaves through the east edge is drawn on the east side.
  assert.equal(spotDirection('U', 0, 'field:NE'), 'north');
  assert.equal(spotDirection('U', 90, 'field:NE'), 'east');
  assert.equal(spotDirection('E', 180, 'city:S'), 'south');
  assert.equal(spotDirection('B', 0, 'monastery'), 'centre');
});

test('tile SVG matches the tile table', () => {
  for (const [t, def] of TILES.entries()) {
    const svg = tileMarkup(t);
    const cities = def.segments.filter((s) => s.kind === 0).length;
    const roads = def.segments.filter((s) => s.kind === 1).length;
    assert.equal((svg.match(/url\(#t-city\)/g) ?? []).length, cities, `${def.name} cities`);
    // Each road is drawn twice (edge, then surface).
    assert.equal((svg.match(/stroke-width="10"/g) ?? []).length, roads, `${def.name} roads`);
    assert.equal(
      svg.includes('class="monastery"'),
      def.segments.some((s) => s.kind === 3),
      `${def.name} monastery`,
    );
    assert.equal((svg.match(/class="pennant"/g) ?? []).length, def.segments.some((s) => s.pennant) ? 1 : 0, `${def.name} pennant`);
  }
  const defs = tileDefs();
  for (const n of TILE_NAMES) assert.ok(defs.includes(`id="tile-${n}"`));
});

test('words for spots, moves and scorings', () => {
  assert.equal(spotLabel('city:N'), 'city (north)');
  assert.equal(spotLabel('field:NE', true, { tile: 'U', rotation: 90 }), 'Farmer in the field (east)');
  assert.equal(spotLabel('monastery', true), 'Monk in the monastery');
  const seats = [
    { seat: 0, name: 'Ada', kind: 'person' as const, connected: true, standIn: null, score: 0, followers: 7, points: { city: 0, road: 0, monastery: 0, farm: 0 } },
    { seat: 1, name: 'greedy bot 2', kind: 'bot' as const, level: 'greedy' as const, connected: true, standIn: null, score: 0, followers: 7, points: { city: 0, road: 0, monastery: 0, farm: 0 } },
  ];
  // Words for the player, the letter and the coordinates for the detail; bots by a name.
  const last = { turn: 0, seat: 0, tile: 'U', move: { x: 1, y: 0, rotation: 90, meeple: 'road:N' }, events: [], discarded: [] };
  assert.equal(moveText(last, seats), 'Ada placed a straight road with a follower on the road (centre)');
  assert.equal(moveWhere(last), 'tile U at (1, 0), turned 90°');
  assert.equal(moveText({ ...last, seat: 1, tile: 'A', move: { ...last.move, meeple: null } }, seats), 'Bertha placed a monastery with a road');
  // The expansions' figures by name, and taking the abbot back.
  assert.equal(moveText({ ...last, move: { ...last.move, figure: 'large' as const } }, seats), 'Ada placed a straight road with a large follower on the road (centre)');
  assert.equal(moveText({ ...last, tile: 'B', move: { x: 1, y: 0, rotation: 0, meeple: 'monastery', figure: 'abbot' as const } }, seats), 'Ada placed a monastery with the abbot on the monastery');
  assert.equal(moveText({ ...last, move: { x: 1, y: 0, rotation: 90, meeple: null, returnAbbot: true as const } }, seats), 'Ada placed a straight road and took the abbot back');
  assert.equal(seatLabel(seats, 1), 'Bertha (greedy bot)');
  assert.equal(eventText({ players: [0, 1], kind: 'city', points: 8, phase: 'play', tiles: 4 }, seats), 'Ada and Bertha score 8 for a completed city (4 tiles)');
  assert.equal(eventText({ players: [1], kind: 'farm', points: 6, phase: 'final', tiles: 2 }, seats), 'Bertha scores 6 for a farm (2 completed cities)');
  const words = TILE_NAMES.map((t) => tileWords(t));
  assert.equal(new Set(words).size, 24, 'every tile type has its own words');
  for (const w of words) assert.doesNotMatch(w, /^tile$|\b[A-X]\b/);
  assert.equal(tileWords('E', true), 'a city edge');
  assert.equal(tileWords('I', true), 'a tile with two city edges on neighbouring sides', 'one tile, not "a two city edges"');
  assert.equal(eventText({ players: [0], kind: 'road', points: 3, phase: 'final', tiles: 3 }, seats), 'Ada scores 3 for an unfinished road (3 tiles)');
});

test('scorings of the expansions in words: inns, cathedrals, gardens', () => {
  const seats = [{ seat: 0, name: 'Ada', kind: 'person', connected: true, standIn: null, score: 0, followers: 7, points: { city: 0, road: 0, farm: 0, monastery: 0 } }] as any;
  assert.equal(eventText({ players: [0], kind: 'road', points: 0, phase: 'final', tiles: 4, inn: true }, seats), 'Ada scores 0 for an unfinished road with an inn (4 tiles)');
  assert.equal(eventText({ players: [0], kind: 'city', points: 15, phase: 'play', tiles: 4, cathedral: true }, seats), 'Ada scores 15 for a completed city with a cathedral (4 tiles)');
  assert.equal(eventText({ players: [0], kind: 'monastery', points: 9, phase: 'play', tiles: 9, garden: true }, seats), 'Ada scores 9 for a completed garden (9 tiles)');
});

test("a game's options in one line, as the lobby and finished lists show them", () => {
  assert.equal(rulesText({ tinyCity: false, farmers: '3rd' }), 'farmers 3rd');
  assert.equal(rulesText({ tinyCity: true, farmers: '1st', abbot: true, innsCathedrals: true, river: true }), 'Inns & Cathedrals · the River · the Abbot · small cities · farmers 1st');
  assert.equal(rulesText(undefined), 'farmers 3rd', 'a summary from an old server has no rules');
});

test('every seat a game can have (six with Inns & Cathedrals) gets its own colour, glyph and glyph name, on its meeples too', () => {
  const SEATS = MAX_SEATS;
  assert.equal(SEATS, 6);
  assert.equal(new Set(PLAYER_COLORS.slice(0, SEATS)).size, SEATS);
  assert.equal(new Set(PLAYER_GLYPHS.slice(0, SEATS)).size, SEATS);
  const names = Array.from({ length: SEATS }, (_, p) => glyphName(p));
  assert.ok(names.every(Boolean) && new Set(names).size === SEATS, names.join());
  const glyphPaths = Array.from({ length: SEATS }, (_, p) => /<path d="([^"]+)"/.exec(meepleMarkup(p, 0, 0))![1]);
  assert.equal(new Set(glyphPaths).size, SEATS, "each seat's meeple carries its own glyph");
  for (let p = 0; p < SEATS; p++) assert.match(meepleMarkup(p, 0, 0), new RegExp(`fill="${PLAYER_COLORS[p]}"`));
  assert.match(meepleIcon(5), new RegExp(`fill="${PLAYER_COLORS[5]}"`));
});
