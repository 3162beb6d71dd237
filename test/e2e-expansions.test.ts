// The three expansions in the browser: a person creates a six-seat game with the River, Inns &
// Cathedrals and the Abbot from the lobby, plays by keyboard through the river and beyond with
// every figure (L the large follower, A the abbot, B the abbot back), on a desktop and on a phone;
// a finished game with all three opens in the replay, which steps to its end drawing the
// expansions' tiles and figures. Screenshots go to test-results/e2e/ (09-*).
//
// Needs `npm run build` (the bot worker and the client bundle).

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { INNS_TILES } from '../bot-engine/expansion-tiles.ts';
import { followersOnBoard } from '../bot-engine/game.ts';
import { type GameRecord, replayRecord, replaySteps } from '../bot-engine/record.ts';
import { CHROMIUM, needing } from './support/needs.ts';
import { Client, createGame, playUntilOver } from './server-helpers.ts';
import { type E2E, gameView, shot, startE2E, turnOf, waitMyTurn } from './support/e2e.ts';

const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;
before(async () => {
  e2e = await startE2E();
});
after(() => e2e?.close());

/** One turn by keyboard: the next legal cell, then the figure `key` asks for (if this placement
 * offers it) on its first spot, or the abbot back (B), then Enter. */
async function playTurn(page: Page, key: 'l' | 'a' | 'b' | '1' | null): Promise<void> {
  await page.keyboard.press('n');
  await page.waitForSelector('.layer-tentative .tentative');
  if (key === 'l' || key === 'a') {
    await page.keyboard.press(key);
    await page.keyboard.press('1');
  } else if (key) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
}

const noOverflow = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth);

test('a six-seat game with the River, Inns & Cathedrals and the Abbot, by keyboard, on a desktop and a phone', async () => {
  const { context, page, errors } = await e2e.newPage({ width: 1280, height: 800 });
  await page.goto(`${e2e.base}/`);
  await page.fill('input[name=name]', 'Cleo');
  for (const option of ['innsCathedrals', 'river', 'abbot']) await page.check(`input[name=${option}]`);
  await page.selectOption('select[data-opp="0"]', 'random');
  for (let i = 1; i < 5; i++) {
    await page.click('[data-action=add]');
    await page.selectOption(`select[data-opp="${i}"]`, i % 2 ? 'greedy' : 'random');
  }
  assert.ok(await page.locator('[data-action=add]').isDisabled(), 'six seats at most');
  await shot(page, '09-lobby-six-seats-expansions');
  await page.click('button[type=submit]:has-text("Create game")');

  let turn = -1;
  let placedFigure = false;
  const keys = ['a', 'l', '1', 'b', null, 'a', 'l', 'b', '1', 'b', null, 'l'] as const;
  for (let i = 0; i < keys.length; i++) {
    if ((await waitMyTurn(page, turn, 30000)) === 'finished') break;
    turn = await turnOf(page);
    const now = await gameView(page);
    placedFigure ||= now.seats[0].large === 0 || now.seats[0].abbots === 0;
    if (i === 0) {
      const view = await gameView(page);
      assert.deepEqual(view.rules, { tinyCity: false, farmers: '3rd', innsCathedrals: true, river: true, abbot: true });
      assert.equal(view.seats.length, 6);
      assert.equal(view.board[0].tile, 'RA', 'the spring is the start tile');
      assert.ok(/^R/.test(view.tile), `the river comes first: ${view.tile}`);
      // Each player's large follower and abbot are shown in hand beside the followers.
      for (const figure of ['large', 'abbot']) assert.equal(await page.locator(`.players .player .meeple-icon.${figure}`).count(), 6, figure);
      await shot(page, '09-river-desktop');
    }
    if (i === 6) {
      await shot(page, '09-six-seats-desktop');
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(await noOverflow(page), 'no horizontal overflow on a phone');
      await shot(page, '09-six-seats-phone');
      await page.click('[data-action=sheet]');
      assert.equal(await page.locator('.players .player:visible').count(), 6);
      await shot(page, '09-six-seats-phone-sheet');
      await page.click('[data-action=sheet]');
      await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
    }
    await playTurn(page, keys[i]);
  }
  const view = await gameView(page);
  // Every figure of the person's: in the supply or standing on the board.
  const mine = view.followers.filter((f: any) => f.player === 0);
  const seat = view.seats[0];
  assert.equal(seat.followers + mine.filter((f: any) => !f.figure).length, 7);
  assert.equal(seat.large + mine.filter((f: any) => f.figure === 'large').length, 1);
  assert.equal(seat.abbots + mine.filter((f: any) => f.figure === 'abbot').length, 1);
  assert.ok(view.turn >= 11 * 6, `eleven rounds played: turn ${view.turn}`);
  assert.ok(placedFigure, 'the person placed the large follower or the abbot by keyboard');
  await shot(page, '09-six-seats-phone-later');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a finished game with the River, Inns & Cathedrals and the Abbot replays to its end: its tiles, large followers and abbots drawn', async () => {
  const seats = [{ kind: 'person' as const }, ...Array.from({ length: 3 }, () => ({ kind: 'bot' as const, level: 'random' as const }))];
  const { id, tokens } = await createGame(e2e.base, seats, () => 'Rea', { rules: { river: true, innsCathedrals: true, abbot: true } });
  const me = await Client.join(e2e.ws, id, tokens.get(0));
  await playUntilOver(new Map([[0, me]]), 60000);
  me.close();
  const record = (await (await fetch(`${e2e.base}/api/games/${id}/record`)).json()) as GameRecord;
  const placed = record.moves.flatMap((m) => ('tile' in m ? [m.tile] : []));
  assert.ok(placed.some((t) => INNS_TILES.some((d) => d.name === t)) && placed.some((t) => t.endsWith('g')), 'inn or cathedral tiles and gardens were played');
  // The first step at which each expansion figure stands on the board, and how many do then.
  const firstOnBoard = new Map<string, { step: number; count: number }>();
  // (Each step's state is the one state, moved on: read it before the next step.)
  let step = 0;
  for (const { state } of replaySteps(record)) {
    for (const figure of ['large', 'abbot']) {
      const count = followersOnBoard(state).filter((f) => f.figure === figure).length;
      if (count > 0 && !firstOnBoard.has(figure)) firstOnBoard.set(figure, { step, count });
    }
    step++;
  }
  // Random bots nearly always stand a large follower; an abbot only when a garden or monastery came their way.
  assert.ok(firstOnBoard.size > 0, 'a large follower or an abbot stood on the board');

  const { context, page, errors } = await e2e.newPage({ width: 1280, height: 800 });
  await page.goto(`${e2e.base}/#/replay/${id}`);
  await page.waitForSelector('.replay .moves li');
  await page.click('[data-action=end]');
  assert.equal(await page.getAttribute('.game', 'data-step'), String(record.moves.length + 1), 'the last step: final scoring');
  // Every tile played is drawn from its own definition, the spring (the start tile) included.
  const drawn = await page.locator('.board .layer-tiles use').evaluateAll((uses) => uses.map((u) => u.getAttribute('href')));
  assert.deepEqual(drawn.sort(), ['RA', ...placed].map((t) => `#tile-${t}`).sort());
  const scores = await page.$$eval('.players .p-score', (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(scores, Object.values(replayRecord(record).scores));
  await shot(page, '09-replay-expansions-end');
  for (const [figure, { step, count }] of firstOnBoard) {
    await page.$eval(
      '[data-action=seek]',
      (el: any, at) => {
        el.value = String(at);
        el.dispatchEvent(new (globalThis as any).Event('input', { bubbles: true }));
      },
      step,
    );
    assert.equal(await page.getAttribute('.game', 'data-step'), String(step));
    assert.equal(await page.locator(`.layer-followers .follower[data-figure=${figure}] .meeple.${figure}`).count(), count, `${figure} at step ${step}`);
    // The move that stood it there names it.
    assert.match((await page.textContent('.replay-controls')) ?? '', figure === 'large' ? / with a large follower on the / : / with the abbot on the /);
    await shot(page, `09-replay-expansions-${figure}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
