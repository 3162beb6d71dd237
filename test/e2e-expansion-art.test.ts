// The expansion tiles and figures in a real browser: the tile gallery (#/tiles) draws every
// river, inns & cathedrals and garden tile of bot-engine/expansion-tiles.ts, and each seat's
// follower, large follower and abbot, at desktop and phone size; a six-player game with every
// option is drawn on the board (seat 6's colour, the river, large followers and abbots) while
// it is played. Screenshots to look at in test-results/e2e/ (expansion-*.png).
//
// Needs `npm run build` (the client bundle).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { INNS_TILES, RIVER_TILES } from '../bot-engine/expansion-tiles.ts';
import { PLAYER_COLORS } from '../client/src/art.ts';
import { EXPANSION_TILE_NAMES } from '../client/src/expansion-art.ts';
import { CHROMIUM, needing } from './support/needs.ts';
import { Client, createGame, playTurns } from './server-helpers.ts';
import { type E2E, SHOTS, startE2E } from './support/e2e.ts';

const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;
before(async () => {
  e2e = await startE2E();
});
after(() => e2e?.close());

for (const [size, viewport] of [
  ['desktop', { width: 1300, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`${size}: the gallery draws every expansion tile and every seat's figures`, async () => {
    const { context, page, errors } = await e2e.newPage(viewport);
    await page.goto(`${e2e.base}/#/tiles`);
    const expansions = page.locator('[data-gallery=expansions]');
    await expansions.waitFor();
    assert.equal(await expansions.locator('.gallery-card').count(), EXPANSION_TILE_NAMES.length);
    // Each tile is drawn with some size (its <use> resolves to a definition with content).
    const sizes = await expansions.locator('.gallery-tile > use').evaluateAll((uses) => uses.map((u) => (u as any).getBBox().width as number));
    assert.ok(sizes.length === EXPANSION_TILE_NAMES.length * 2 && sizes.every((w) => w >= 99), `every tile drawn (${sizes.length} drawings)`);
    // The pieces drawn match the tables: one inn per inn road, a cathedral per cathedral tile, a
    // garden per garden tile, water on every river tile.
    const count = (selector: string) => page.locator(`#tessera-tile-defs ${selector}`).count();
    const defs = [...RIVER_TILES, ...INNS_TILES];
    assert.equal(
      await count('.inn'),
      defs.reduce((n, d) => n + d.segments.filter((s) => s.inn).length, 0),
    );
    assert.equal(await count('.cathedral'), defs.filter((d) => d.segments.some((s) => s.cathedral)).length);
    assert.equal(await count('.garden'), EXPANSION_TILE_NAMES.filter((n) => n.endsWith('g')).length);
    // Figures: every seat, the large follower drawn bigger than the follower, the abbot its own shape.
    const figures = page.locator('[data-gallery=figures] .gallery-figures');
    assert.equal(await figures.count(), PLAYER_COLORS.length);
    const last = figures.nth(5);
    const follower = (await last.locator('.meeple').first().boundingBox())!;
    const large = (await last.locator('.meeple.large').boundingBox())!;
    assert.ok(large.height > follower.height * 1.3, `large ${large.height} vs ${follower.height} px`);
    assert.equal(await last.locator('.meeple.abbot use[href="#abbot-shape"]').count(), 2);
    assert.match((await last.innerHTML()) ?? '', new RegExp(PLAYER_COLORS[5]));
    await expansions.screenshot({ path: join(SHOTS, `expansion-gallery-${size}.png`) });
    // What a phone shows at once, for the eye: the inns (with the river's monastery above).
    await expansions.locator('.gallery-card:has-text("IL")').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `expansion-gallery-${size}-view.png`) });
    await page.locator('[data-gallery=figures]').screenshot({ path: join(SHOTS, `expansion-figures-${size}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a six-player game with the River, Inns & Cathedrals and the Abbot: the board draws its tiles and every figure', async () => {
  const seats = [{ kind: 'person' as const }, ...Array.from({ length: 5 }, () => ({ kind: 'bot' as const, level: 'random' as const }))];
  const { id, tokens } = await createGame(e2e.base, seats, () => 'Six', { rules: { river: true, innsCathedrals: true, abbot: true } });
  const me = await Client.join(e2e.ws, id, tokens.get(0));
  // Part-way: the river is down and figures stand on the board.
  await playTurns(new Map([[0, me]]), 40, 60000);
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    const { context, page, errors } = await e2e.newPage(viewport);
    await page.goto(`${e2e.base}/#/g/${id}`);
    await page.waitForSelector('.conn[data-conn=open]');
    await page.waitForFunction(() => (globalThis as any).e2eWire.view?.followers?.length > 0);
    await page.waitForSelector('.layer-followers .follower', { state: 'attached' });
    assert.equal(await page.locator('.players .player').count(), 6, 'six seats in the players panel');
    assert.ok(await page.locator(`.track-marker[data-seat="5"] circle[fill="${PLAYER_COLORS[5]}"]`).count(), 'seat 6 on the score track');
    // Every figure on the board is drawn on its spot, in its own shape.
    const drawn = await page.locator('.layer-followers .follower').count();
    const view = await page.evaluate(() => (globalThis as any).e2eWire.view);
    assert.equal(drawn, view.followers.length, 'every figure on the board is drawn');
    for (const figure of ['large', 'abbot'])
      assert.equal(
        await page.locator(`.layer-followers .follower[data-figure=${figure}] .meeple.${figure}`).count(),
        view.followers.filter((f: { figure?: string }) => f.figure === figure).length,
        figure,
      );
    if (size === 'phone') await page.click('[data-action=fit]');
    await page.screenshot({ path: join(SHOTS, `expansion-game-6p-${size}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
  me.close();
});
