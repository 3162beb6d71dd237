// The engine's tile data against docs/RULES.md: the table is parsed here independently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CORNERS,
  DISTINCT_ROTATIONS,
  EDGES,
  KIND_CITY,
  KIND_FIELD,
  KIND_MONASTERY,
  KIND_ROAD,
  ROT_EDGES,
  ROT_EDGE_SEG,
  ROT_HALF_FIELD,
  ROT_SPOT_LOOKUP,
  TILES,
  TILE_COUNTS,
  tileIndex,
} from '../bot-engine/tiles.ts';

const rulesPath = fileURLToPath(new URL('../docs/RULES.md', import.meta.url));
const rows = readFileSync(rulesPath, 'utf8')
  .split('\n')
  .filter((l) => /^\| [A-X] \|/.test(l))
  .map((l) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  );

const sortedKey = (xs: string[]) => [...xs].sort().join(',');
const edgeSet = (idx: number[]) => sortedKey(idx.map((i) => EDGES[i]));

test('RULES.md lists 24 types and 72 tiles, 6 monasteries, 10 pennants', () => {
  assert.equal(rows.length, 24);
  let tiles = 0;
  let monasteries = 0;
  let pennants = 0;
  for (const [type, count, , , , monastery, pennant] of rows) {
    const n = parseInt(count, 10);
    tiles += n;
    if (monastery === 'yes') monasteries += n;
    if (pennant === 'yes') pennants += n;
    assert.equal(TILE_COUNTS[tileIndex(type)], n, `count of ${type}`);
  }
  assert.equal(tiles, 72);
  assert.equal(monasteries, 6);
  assert.equal(pennants, 10);
});

for (const [type, , edges, cities, roads, monastery, pennant, fields] of rows) {
  test(`tile ${type} matches RULES.md`, () => {
    const def = TILES[tileIndex(type)];
    assert.equal(def.edges.map((e) => ' CRF'[e]).join(''), edges);
    const segs = (kind: number) => def.segments.filter((s) => s.kind === kind);
    const expectCities = cities === '-' ? [] : cities.split(';').map((g) => sortedKey(g.trim().split('+')));
    assert.deepEqual(
      segs(KIND_CITY)
        .map((s) => edgeSet(s.sides))
        .sort(),
      expectCities.sort(),
    );
    for (const c of segs(KIND_CITY)) assert.equal(c.pennant, pennant === 'yes');
    const expectRoads = roads === '-' ? [] : roads.split(';').map((g) => sortedKey(g.trim().split('-')));
    assert.deepEqual(
      segs(KIND_ROAD)
        .map((s) => edgeSet(s.sides))
        .sort(),
      expectRoads.sort(),
    );
    assert.equal(segs(KIND_MONASTERY).length, monastery === 'yes' ? 1 : 0);

    const cityNames = segs(KIND_CITY).map((s) => edgeSet(s.sides));
    const cityOf = (token: string) => {
      if (token === 'city') return cityNames[0];
      const first = token.split('+')[0];
      const found = segs(KIND_CITY).find((s) => s.sides.includes(EDGES.indexOf(first as (typeof EDGES)[number])));
      assert.ok(found, `${type}: no city at ${token}`);
      return edgeSet(found.sides);
    };
    const text = fields
      .replace(/^one field:\s*/, '')
      .replace(/\(two fields\)/, '')
      .trim();
    const expectFields =
      text === '-'
        ? []
        : text.split(';').map((part) => {
            const [corners, touching] = part.split('->').map((x) => x.trim());
            const touched = touching ? [...new Set(touching.split(/\s+and\s+/).map(cityOf))].sort() : [];
            return `${sortedKey(corners.split(/\s+/))} -> ${touched.join(' | ')}`;
          });
    const actualFields = segs(KIND_FIELD).map((f) => {
      const touched = [...new Set(f.cities.map((c) => edgeSet(def.segments[c].sides)))].sort();
      return `${sortedKey(f.sides.map((c) => CORNERS[c]))} -> ${touched.join(' | ')}`;
    });
    assert.deepEqual(actualFields.sort(), expectFields.sort());
  });
}

test('rotation turns edges clockwise: at 90 the north edge faces east', () => {
  const j = tileIndex('J'); // CRRF
  const letters = (tr: number) => [0, 1, 2, 3].map((e) => ' CRF'[(ROT_EDGES[tr] >> (e * 2)) & 3]).join('');
  assert.equal(letters(j * 4 + 0), 'CRRF');
  assert.equal(letters(j * 4 + 1), 'FCRR');
  assert.equal(letters(j * 4 + 2), 'RFCR');
  assert.equal(letters(j * 4 + 3), 'RRFC');
  // J's road E-S becomes S-W at 90; its city sits on the east edge.
  assert.equal(ROT_EDGE_SEG[(j * 4 + 1) * 4 + 1], ROT_EDGE_SEG[(j * 4 + 0) * 4 + 0]);
  assert.equal(ROT_SPOT_LOOKUP[j * 4 + 1].get('city:E'), 0);
  assert.equal(ROT_SPOT_LOOKUP[j * 4 + 1].get('city:N'), undefined);
  assert.equal(ROT_SPOT_LOOKUP[j * 4 + 1].get('road:S'), ROT_SPOT_LOOKUP[j * 4 + 1].get('road:W'));
});

test('symmetric rotations are dropped: C, B, X once; F, G, H, U twice; the rest four times', () => {
  const distinct = (t: string) => [0, 1, 2, 3].filter((k) => DISTINCT_ROTATIONS[tileIndex(t)] & (1 << k)).length;
  for (const t of ['B', 'C', 'X']) assert.equal(distinct(t), 1, t);
  for (const t of ['F', 'G', 'H', 'U']) assert.equal(distinct(t), 2, t);
  for (const t of 'ADEIJKLMNOPQRSTVW') assert.equal(distinct(t), 4, t);
});

test('spot names: any edge or corner reaching a feature names it', () => {
  const n = tileIndex('N') * 4; // city N+W at rotation 0
  assert.equal(ROT_SPOT_LOOKUP[n].get('city:N'), ROT_SPOT_LOOKUP[n].get('city:W'));
  const u = tileIndex('U') * 4; // fields NE NW; SE SW
  assert.equal(ROT_SPOT_LOOKUP[u].get('field:NE'), ROT_SPOT_LOOKUP[u].get('field:NW'));
  assert.notEqual(ROT_SPOT_LOOKUP[u].get('field:NE'), ROT_SPOT_LOOKUP[u].get('field:SE'));
  assert.equal(ROT_SPOT_LOOKUP[tileIndex('B') * 4].get('monastery'), 1);
  // Half-edges on a city edge hold no field; on a road edge, one field each side.
  const d = tileIndex('D') * 4;
  assert.equal(ROT_HALF_FIELD[d * 8 + 0], -1);
  assert.notEqual(ROT_HALF_FIELD[d * 8 + 2], ROT_HALF_FIELD[d * 8 + 3]);
});

test('a half-edge names its field on a base tile too, as RULES.md says of every tile; a city edge has none', () => {
  const d = tileIndex('D') * 4 + 1; // D at 90: city E; road N-S; fields west and east of the road
  assert.equal(ROT_SPOT_LOOKUP[d].get('field:N-w'), ROT_SPOT_LOOKUP[d].get('field:SW'));
  assert.equal(ROT_SPOT_LOOKUP[d].get('field:N-e'), ROT_SPOT_LOOKUP[d].get('field:NE'));
  assert.notEqual(ROT_SPOT_LOOKUP[d].get('field:N-w'), ROT_SPOT_LOOKUP[d].get('field:N-e'));
  assert.equal(ROT_SPOT_LOOKUP[d].get('field:E-n'), undefined, 'the east edge is a city at 90');
  for (let tr = 0; tr < 24 * 4; tr++)
    for (let h = 0; h < 8; h++) {
      const field = ROT_HALF_FIELD[tr * 8 + h];
      const named = ROT_SPOT_LOOKUP[tr].get(`field:${['N-w', 'N-e', 'E-n', 'E-s', 'S-e', 'S-w', 'W-s', 'W-n'][h]}`);
      assert.equal(named, field < 0 ? undefined : field, `type ${tr >> 2} rotation ${(tr & 3) * 90} half ${h}`);
    }
});
