// Feature highlights of every tile type, base and expansions, drawn by Chromium: each segment of
// each type has a shape (`seg-X-i`, what the hover preview, the scoring outlines and the final
// scoring build features from), and that shape covers the segment's own follower spot and a
// real part of the tile. A type without shapes leaves its stretch of a feature blank.

import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { PATTERNS, SEGMENT_SPOTS, segmentDefs } from '../client/src/art.ts';
import { expansionSegmentDefs } from '../client/src/expansion-art.ts';
import { EXPANSION_TILES } from '../bot-engine/expansion-tiles.ts';
import { TILES, TYPE_NAMES } from '../bot-engine/tiles.ts';
import { CHROMIUM, needing } from './support/needs.ts';

const { test } = needing([CHROMIUM]);

const SEGMENTS = [...TILES, ...EXPANSION_TILES].map((def) => def.segments);
const defs = () => segmentDefs() + expansionSegmentDefs();

test('every segment of every tile type (base and expansions) has a highlight shape', () => {
  const all = defs();
  const missing = TYPE_NAMES.flatMap((name, t) => SEGMENTS[t].map((_, i) => `seg-${name}-${i}`)).filter((id) => !all.includes(`id="${id}"`));
  assert.deepEqual(missing, []);
  assert.equal(
    (all.match(/ id="seg-/g) ?? []).length,
    SEGMENTS.reduce((n, s) => n + s.length, 0),
    'one shape per segment, none twice',
  );
});

test('each shape, drawn, covers its segment’s follower spot and a real part of the tile', async () => {
  const cells = TYPE_NAMES.flatMap((name, t) => SEGMENTS[t].map((_, i) => ({ name, t, i })));
  const COLS = 20;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${COLS * 100}" height="${Math.ceil(cells.length / COLS) * 100}"><defs>${PATTERNS}${defs()}</defs><rect width="100%" height="100%" fill="#fff"/>${cells
    .map((c, k) => `<use href="#seg-${c.name}-${c.i}" transform="translate(${(k % COLS) * 100} ${Math.floor(k / COLS) * 100})" style="color:#f00"/>`)
    .join('')}</svg>`;
  const browser = await chromium.launch({ executablePath: CHROMIUM.program, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const probes = cells.map((c) => SEGMENT_SPOTS[c.t][c.i]);
    const found: { spot: boolean; share: number }[] = await page.evaluate(
      async ({ svg, probes, cols }) => {
        const g0 = globalThis as any;
        const img = new g0.Image();
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
        await img.decode();
        const canvas = g0.document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext('2d');
        g.drawImage(img, 0, 0);
        const red = (x: number, y: number) => {
          const [r, gr, b] = g.getImageData(x, y, 1, 1).data;
          return r > 200 && gr < 80 && b < 80;
        };
        return probes.map(([px, py], k) => {
          const ox = (k % cols) * 100;
          const oy = Math.floor(k / cols) * 100;
          const data = g.getImageData(ox, oy, 100, 100).data;
          let painted = 0;
          for (let p = 0; p < data.length; p += 4) if (data[p] > 200 && data[p + 1] < 80 && data[p + 2] < 80) painted++;
          return { spot: red(Math.round(ox + px), Math.round(oy + py)), share: painted / 10000 };
        });
      },
      { svg, probes, cols: COLS },
    );
    const bad = cells.flatMap((c, k) => {
      const f = found[k];
      const problems = [];
      if (!f.spot) problems.push(`spot ${SEGMENT_SPOTS[c.t][c.i]} not covered`);
      if (f.share < 0.02) problems.push(`only ${(f.share * 100).toFixed(1)} % of the tile`);
      return problems.length ? [`${c.name} segment ${c.i}: ${problems.join(', ')}`] : [];
    });
    assert.deepEqual(bad, []);
  } finally {
    await browser.close();
  }
});
