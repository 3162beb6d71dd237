// The expansion tiles' art without a browser, against bot-engine/expansion-tiles.ts: each tile's
// drawing holds what its table row says (water on river tiles, a spring and a lake at the ends,
// one inn per inn road, a cathedral, a garden) and a garden never stands in a city; the base
// tiles keep their own definitions; the large follower is drawn bigger and the abbot in its own
// shape, for every seat.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE_GARDENS, EDGE_RIVER, EXPANSION_TILES, INNS_TILES, RIVER_TILES } from '../bot-engine/expansion-tiles.ts';
import { KIND_CITY, ROT_SPOT_NAMES, TILES, TILE_NAMES, TILE_TYPES, TYPE_NAMES } from '../bot-engine/tiles.ts';
import { LARGE_SCALE, PLAYER_COLORS, coveredPoints, hedgeClear, meepleMarkup, rotatePoint, spotPosition, spotSegment, tileDefs } from '../client/src/art.ts';
import { EXPANSION_TILE_NAMES, baseGardenMarkup, expansionTileDefs, expansionTileMarkup } from '../client/src/expansion-art.ts';
import { tileWords } from '../client/src/text.ts';

const count = (markup: string, cls: string) => markup.split(`class="${cls}"`).length - 1;

test('every expansion tile is drawn from its table row', () => {
  for (const def of [...RIVER_TILES, ...INNS_TILES]) {
    const art = expansionTileMarkup(def);
    assert.equal(count(art, 'river'), def.river.length, `${def.name}: one river run per table run`);
    assert.equal(def.edges.includes(EDGE_RIVER), def.river.length > 0);
    assert.equal(count(art, 'inn'), def.segments.filter((s) => s.inn).length, `${def.name}: inns`);
    assert.equal(count(art, 'cathedral'), def.segments.some((s) => s.cathedral) ? 1 : 0, `${def.name}: cathedral`);
    assert.equal(count(art, 'garden'), def.name.endsWith('g') ? 1 : 0, `${def.name}: garden`);
    assert.equal(count(art, 'pennant'), def.segments.filter((s) => s.pennant).length, `${def.name}: pennants`);
  }
  // The spring and the lake: one river edge each, drawn as a pool.
  const ends = RIVER_TILES.filter((d) => d.river.length === 1 && d.river[0].length === 1).map((d) => d.name);
  assert.deepEqual(ends, ['RA', 'RB']);
  for (const name of ends) assert.match(expansionTileMarkup(RIVER_TILES.find((d) => d.name === name)!), /<(circle|ellipse) cx="50"/);
});

/** Where a drawing put its garden. */
function gardenAt(markup: string): [number, number] {
  const m = /class="garden" transform="translate\(([\d.]+) ([\d.]+)\)"/.exec(markup);
  assert.ok(m, 'a garden is drawn');
  return [Number(m[1]), Number(m[2])];
}

test('a garden stands in a field: the tile edge nearest to it is never a city edge (the middle when all four are)', () => {
  const cityEdges = (edges: number[]) => edges.flatMap((e, i) => (e === 1 ? [i] : []));
  const nearestEdge = ([x, y]: [number, number]) => [y, 100 - x, 100 - y, x].indexOf(Math.min(y, 100 - x, 100 - y, x));
  const cases: [string, string, number[]][] = [
    ...[...RIVER_TILES, ...INNS_TILES].filter((d) => d.name.endsWith('g')).map((d): [string, string, number[]] => [d.name, expansionTileMarkup(d), cityEdges(d.edges)]),
    ...BASE_GARDENS.map((n): [string, string, number[]] => {
      const def = TILES[TILE_NAMES.indexOf(n)];
      return [`${n}g`, baseGardenMarkup(n), def.segments.filter((s) => s.kind === KIND_CITY).flatMap((s) => s.sides)];
    }),
  ];
  assert.equal(cases.length, EXPANSION_TILE_NAMES.filter((n) => n.endsWith('g')).length);
  for (const [name, art, cities] of cases) {
    const at = gardenAt(art);
    // Cities on all four edges leave the field in the middle.
    if (new Set(cities).size === 4) assert.deepEqual(at, [50, 50], name);
    else assert.ok(!cities.includes(nearestEdge(at)), `${name}: garden at ${at} beside a city edge`);
  }
});

// Rg's garden used to sit on its city's wall: the nearest edge alone let a hedge reach over it.
test("a garden's whole hedge keeps clear of the lines drawn on its tile and of the tile's other figure spots", () => {
  for (const def of EXPANSION_TILES.filter((d) => d.name.endsWith('g'))) {
    const t = TYPE_NAMES.indexOf(def.name);
    const at = spotPosition(def.name, 0, 'garden')!.at;
    assert.deepEqual(at, gardenAt(def.name.length === 2 && BASE_GARDENS.includes(def.name[0]) ? baseGardenMarkup(def.name[0]) : expansionTileMarkup(def)), def.name);
    assert.ok(hedgeClear(at, coveredPoints(def)), `${def.name}: garden at ${at} over a city wall, road or river`);
    const others = ROT_SPOT_NAMES[t * 4].filter((n) => n !== 'garden').map((n) => spotPosition(def.name, 0, n)!.at);
    assert.ok(hedgeClear(at, others, 0), `${def.name}: garden at ${at} under a figure spot`);
  }
});

test('expansion definitions add tiles and never replace a base tile’s drawing', () => {
  const ids = (defs: string) => [...defs.matchAll(/<g id="(tile-[^"]+)"/g)].map((m) => m[1]);
  const base = new Set(ids(tileDefs()));
  const added = ids(expansionTileDefs());
  assert.deepEqual(
    added,
    EXPANSION_TILE_NAMES.map((n) => `tile-${n}`),
  );
  assert.ok(added.every((id) => !base.has(id)));
  // A garden twin draws its base tile as it is, with a garden on top.
  assert.ok(baseGardenMarkup('E').startsWith('<use href="#tile-E"/>'));
});

test('every seat has a large follower drawn bigger and an abbot of its own shape', () => {
  for (let seat = 0; seat < PLAYER_COLORS.length; seat++) {
    const follower = meepleMarkup(seat, 0, 0);
    const large = meepleMarkup(seat, 0, 0, { figure: 'large' });
    const abbot = meepleMarkup(seat, 0, 0, { figure: 'abbot' });
    assert.match(follower, /scale\(1\)/);
    assert.match(large, new RegExp(`scale\\(${LARGE_SCALE}\\)`));
    assert.ok(LARGE_SCALE >= 1.3, 'visibly bigger');
    assert.match(abbot, /href="#abbot-shape"/);
    assert.doesNotMatch(abbot, /#meeple-shape/);
    for (const m of [large, abbot]) assert.match(m, new RegExp(`fill="${PLAYER_COLORS[seat]}"`));
  }
});

test('every spot of every expansion tile and rotation has its own place on the tile, turning with it', () => {
  for (const [i, def] of EXPANSION_TILES.entries()) {
    const t = TILE_TYPES + i;
    assert.equal(TYPE_NAMES[t], def.name);
    for (const r of [0, 90, 180, 270]) {
      const placed = new Map<number, [number, number]>();
      for (const spot of ROT_SPOT_NAMES[t * 4 + r / 90]) {
        const p = spotPosition(def.name, r, spot);
        assert.ok(p, `${def.name}@${r} ${spot}`);
        assert.ok(
          p.at.every((c) => c >= 5 && c <= 95),
          `${def.name}@${r} ${spot} inside the tile: ${p.at}`,
        );
        const seg = spotSegment(def.name, r, spot);
        assert.equal(p.kind, ['city', 'road', 'field', 'monastery', 'garden'][def.segments[seg].kind]);
        // Spot names of one segment share a place; different segments are apart (a finger tells them apart).
        for (const [other, at] of placed) if (other !== seg) assert.ok(Math.hypot(at[0] - p.at[0], at[1] - p.at[1]) >= 14, `${def.name}@${r}: ${spot} too near segment ${other}`);
        placed.set(seg, p.at);
        const turned = rotatePoint(spotPosition(def.name, 0, ROT_SPOT_NAMES[t * 4].find((n) => spotSegment(def.name, 0, n) === seg)!)!.at, r / 90);
        assert.deepEqual(p.at.map(Math.round), turned.map(Math.round), `${def.name}@${r} ${spot} turns with the tile`);
      }
    }
  }
});

test('every expansion tile has words of its own, from its table row', () => {
  const words = EXPANSION_TILES.map((d) => tileWords(d.name));
  assert.ok(
    words.every((w) => w !== 'tile'),
    words.join(' / '),
  );
  assert.equal(tileWords('RA'), 'river spring');
  assert.equal(tileWords('RB'), 'river lake');
  assert.equal(tileWords('RD'), 'straight river with a city and a road');
  assert.equal(tileWords('IA'), 'city with a cathedral');
  assert.equal(tileWords('IL', true), 'a city with a road with an inn');
  assert.equal(tileWords('Eg'), 'city edge with a garden');
  assert.equal(tileWords('IE', true), 'a tile with two cities with two roads');
});
