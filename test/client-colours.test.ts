// The seat colours seen with the common colour-vision deficiencies: every pair of the six stays
// apart after simulating protanopia, deuteranopia and tritanopia at full severity, and each stays
// apart from the field, city and road it stands on. Simulation: Machado, Oliveira & Fernandes,
// "A Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6),
// 2009 (culori's filterDeficiency*, severity 1). Distance: CIEDE2000 (ΔE00; about 2 is "just
// noticeable", past 10 reads as a different colour at a glance).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Color, differenceCiede2000, filterDeficiencyDeuter, filterDeficiencyProt, filterDeficiencyTrit, parse } from 'culori';
import { COLORS, PLAYER_COLORS } from '../client/src/art.ts';

const simulated = (filter: (c: Color) => Color) => (hex: string) => filter(parse(hex)!);
const VISIONS: Record<string, (hex: string) => Color> = {
  'normal vision': simulated((c) => c),
  protanopia: simulated(filterDeficiencyProt(1)),
  deuteranopia: simulated(filterDeficiencyDeuter(1)),
  tritanopia: simulated(filterDeficiencyTrit(1)),
};
const distance = differenceCiede2000();
/** Below this two seats could be taken for one another across the table. */
const MIN_BETWEEN_SEATS = 12;
/** A follower must stand out from the tile under it (its dark outline helps too). */
const MIN_FROM_TILES = 20;

function closest(pairs: [string, string][]): { d: number; at: string } {
  let best = { d: Number.POSITIVE_INFINITY, at: '' };
  for (const [vision, simulate] of Object.entries(VISIONS))
    for (const [a, b] of pairs) {
      const d = distance(simulate(a), simulate(b));
      if (d < best.d) best = { d, at: `${a} and ${b} with ${vision}` };
    }
  return best;
}

test('the six seat colours stay apart with protanopia, deuteranopia and tritanopia', () => {
  assert.equal(PLAYER_COLORS.length, 6);
  const pairs: [string, string][] = PLAYER_COLORS.flatMap((a, i) => PLAYER_COLORS.slice(i + 1).map((b): [string, string] => [a, b]));
  const { d, at } = closest(pairs);
  assert.ok(d >= MIN_BETWEEN_SEATS, `ΔE00 ${d.toFixed(1)} between ${at}`);
  // The sixth did not make the palette's closest pair any closer (that pair is blue and pink
  // with protanopia, ΔE00 12.9): it is further from each of the five than that.
  const sixth = closest(PLAYER_COLORS.slice(0, 5).map((c): [string, string] => [PLAYER_COLORS[5], c]));
  assert.ok(sixth.d > d, `the sixth is ΔE00 ${sixth.d.toFixed(1)} from ${sixth.at}`);
});

test('the sixth seat colour stands out from the fields, cities and roads under it', () => {
  const grounds = [COLORS.field, COLORS.city, COLORS.road, COLORS.monastery];
  const { d, at } = closest(grounds.map((g): [string, string] => [PLAYER_COLORS[5], g]));
  assert.ok(d >= MIN_FROM_TILES, `ΔE00 ${d.toFixed(1)} between ${at}`);
});

test('the measure refuses a colour normal vision tells apart: Tol’s teal beside the pink seat', () => {
  assert.ok(distance(parse('#44AA99')!, parse(PLAYER_COLORS[3])!) >= MIN_BETWEEN_SEATS * 3, 'plain to normal vision');
  const { d: teal } = closest([['#44AA99', PLAYER_COLORS[3]]]);
  assert.ok(teal < MIN_BETWEEN_SEATS, `Tol's teal is ΔE00 ${teal.toFixed(1)} from pink with a deficiency`);
});
