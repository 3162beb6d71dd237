// The browser client end to end: the real server (buildApp on 127.0.0.1, port 0, a temp data
// dir) and Debian's Chromium driven by playwright-core (nothing downloaded). A person creates a
// game against a bot, places tiles and followers by clicking, sees the bot answer, refreshes and
// resumes, survives a dropped connection, plays a whole short game (five seats, four fast bots)
// to the end screen, replays it and asks for a rematch; a friend joins by the invite link and a
// third browser watches; the dashboard draws its charts. Screenshots go to test-results/e2e/.
//
// Needs `npm run build` (the bot worker and the client bundle); `npm test` does that first.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CHROMIUM, needing } from './support/needs.ts';
import type { Page } from 'playwright-core';
import { type E2E, type Placement, SHOTS, boardZoom, cellOnScreen, dropConnection, gameView, recordConnStates, selection, shot, spotOnScreen, startE2E, turnOf, waitMyTurn } from './support/e2e.ts';

// Without Chromium, skipped with one line each; under CI=true they fail.
const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;
let base: string;

before(async () => {
  e2e = await startE2E();
  base = e2e.base;
});

after(() => e2e?.close());

const newPage = (viewport?: { width: number; height: number }) => e2e.newPage(viewport);

/** Places the tile by clicking: the cell (hovering first, so the ghost shows), optionally a
 * follower spot on the board, then Confirm. Returns the turn the move was made at. */
async function placeByClicking(page: Page, p: Placement, meeple: string | null): Promise<number> {
  const turn = await turnOf(page);
  const c = await cellOnScreen(page, p.x, p.y);
  await page.mouse.move(c.x, c.y);
  await page.mouse.click(c.x, c.y);
  await page.waitForSelector('.layer-tentative .tentative');
  // The client picks a rotation that fits; turn it to the one we want with the R key.
  for (let i = 0; i < 4; i++) {
    if ((await selection(page))?.rotation === p.rotation) break;
    await page.keyboard.press('r');
  }
  assert.equal((await selection(page))?.rotation, p.rotation);
  if (meeple) {
    const at = await spotOnScreen(page, meeple);
    await page.mouse.click(at.x, at.y);
    assert.equal((await selection(page))?.meeple, meeple);
  }
  await page.click('[data-action=confirm]');
  return turn;
}

test('play a bot by clicking: tiles, a follower, the bot answers, refresh and resume, reconnect', async () => {
  const { context, page, errors } = await newPage();
  await page.goto(`${base}/`);
  await page.waitForSelector('.lobby');
  await page.fill('input[name=name]', 'Ada');
  await page.selectOption('select[data-opp="0"]', 'greedy');
  await page.click('[data-action=refresh]');
  await shot(page, '01-lobby');
  await page.click('button[type=submit]:has-text("Create game")');
  await page.waitForURL(/#\/g\//);
  assert.equal(await waitMyTurn(page), 'mine');
  const gameId = decodeURIComponent(page.url().split('#/g/')[1]);
  assert.equal(await page.evaluate(() => 'tessera' in globalThis), false, 'the page carries no test handle');
  await page.locator('.board').hover();
  await shot(page, '02-first-turn');

  // The side panel shows both seats, the bot by level, 7 followers each, the tile and the bag.
  const panel = await page.textContent('.panel');
  assert.match(panel!, /Ada \(you\)/);
  assert.match(panel!, /bot · greedy/);
  assert.match(panel!, /71\s*tiles left/);
  assert.equal(await page.locator('.player[data-seat="0"] .p-followers .fig[data-figure=follower] .fig-count').textContent(), '7');
  const legalCells = await page.locator('.layer-legal .legal').count();
  assert.ok(legalCells > 0, 'legal positions are highlighted');

  // Wheel zoom changes the scale around the pointer.
  const z0 = await boardZoom(page);
  const bb = (await page.locator('.board').boundingBox())!;
  await page.mouse.move(bb.x + bb.width / 2, bb.y + bb.height / 2);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((z) => Number((globalThis as any).document.querySelector('.board').style.getPropertyValue('--zoom')) > z, z0);
  await page.click('[data-action=fit]');

  // Turn 1: a placement that offers a follower spot; put a follower there by clicking it.
  let view = await gameView(page);
  let legal: Placement[] = view.legal;
  let p = legal.find((l) => l.meeples.length > 0) ?? legal[0];
  const meeple = p.meeples[0] ?? null;
  await placeByClicking(page, p, meeple);
  await page.waitForSelector('.layer-tentative .tentative', { state: 'detached' });
  await shot(page, '03-after-my-move');

  // The bot answers: its move appears in the log, then it is our turn again.
  assert.equal(await waitMyTurn(page, view.turn), 'mine');
  const log = await page.textContent('.log');
  assert.match(log!, /Ada placed/);
  assert.match(log!, /Bertha placed .* thought \d+ ms/);
  if (meeple) assert.match(log!, /Ada placed .* with a follower on the/);
  view = await gameView(page);
  assert.ok(view.board.length >= 3, 'my tile and the bot tile are on the board');
  const mine = view.board.find((t: { x: number; y: number }) => t.x === p.x && t.y === p.y);
  assert.equal(mine.rotation, p.rotation);

  // Take back: a tentative tile can be withdrawn with Escape before anything is sent.
  legal = view.legal;
  const c = await cellOnScreen(page, legal[0].x, legal[0].y);
  await page.mouse.click(c.x, c.y);
  await page.waitForSelector('.layer-tentative .tentative');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.layer-tentative .tentative', { state: 'detached' });
  assert.equal(await turnOf(page), view.turn, 'nothing was sent');

  // Turn 2 by clicking, without a follower.
  p = legal[legal.length - 1];
  await placeByClicking(page, p, null);
  assert.equal(await waitMyTurn(page, view.turn), 'mine');
  const before = await gameView(page);
  await shot(page, '04-bot-answered');

  // Refresh: the seat token in localStorage brings the same seat back, same state.
  await page.reload();
  assert.equal(await waitMyTurn(page), 'mine');
  await page.waitForSelector('.conn[data-conn=open]');
  assert.match((await page.textContent('.conn'))!, /seat 1/);
  const resumed = await gameView(page);
  assert.equal(resumed.gameId, gameId);
  assert.equal(resumed.you, 0);
  assert.equal(resumed.turn, before.turn);
  assert.equal(resumed.board.length, before.board.length);
  assert.deepEqual(
    resumed.seats.map((s: { score: number }) => s.score),
    before.seats.map((s: { score: number }) => s.score),
  );
  // The log comes back too (from the welcome's history): one entry per tile placed.
  assert.equal(await page.locator('.log li.log-move').count(), before.board.length - 1, 'the log is rebuilt after the refresh');
  await shot(page, '05-resumed-after-refresh');

  // A dropped connection comes back by itself, still holding the seat, and can move.
  const connStates = await recordConnStates(page);
  await dropConnection(page);
  await page.waitForFunction(() => (globalThis as any).e2eConnStates.includes('reconnecting'));
  await page.waitForSelector('.conn[data-conn=open]', { timeout: 10000 });
  assert.deepEqual(await connStates(), ['open', 'reconnecting', 'open']);
  const v2 = await gameView(page);
  await placeByClicking(page, v2.legal[0], null);
  assert.equal(await waitMyTurn(page, v2.turn), 'mine');

  // The lobby lists the game under "Your games" to resume.
  await page.goto(`${base}/`);
  await page.waitForSelector(`.my-games a[href="#/g/${encodeURIComponent(gameId)}"]`);
  await page.click(`.my-games a[href="#/g/${encodeURIComponent(gameId)}"]`);
  assert.equal(await waitMyTurn(page), 'mine');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a five-seat game to the end screen (keyboard play), on a phone too; replay, rematch', async () => {
  const { context, page, errors } = await newPage();
  await page.goto(`${base}/`);
  await page.fill('input[name=name]', 'Bea');
  // Four random bots (the most a table takes): the person places only a fifth of the 71 tiles.
  await page.selectOption('select[data-opp="0"]', 'random');
  for (let i = 1; i < 4; i++) {
    await page.click('[data-action=add]');
    await page.selectOption(`select[data-opp="${i}"]`, 'random');
  }
  assert.ok(await page.locator('[data-action=add]').isDisabled(), 'no sixth seat');
  // Inns & Cathedrals seats a sixth player; turning it off again takes that seat away.
  await page.check('input[name=innsCathedrals]');
  await page.click('[data-action=add]');
  assert.equal(await page.locator('select[data-opp]').count(), 5);
  assert.ok(await page.locator('[data-action=add]').isDisabled(), 'no seventh seat');
  await page.uncheck('input[name=innsCathedrals]');
  assert.equal(await page.locator('select[data-opp]').count(), 4);
  assert.ok(await page.locator('[data-action=add]').isDisabled(), 'no sixth seat without Inns & Cathedrals');
  await shot(page, '06-lobby-five-seats');
  await page.check('input[name=tinyCity]');
  await page.click('button[type=submit]:has-text("Create game")');
  let turn = -1;
  let moves = 0;
  for (;;) {
    const state = await waitMyTurn(page, turn, 20000);
    if (state === 'finished') break;
    turn = await turnOf(page);
    // Keyboard only: N selects the next legal position, 1 a follower (when offered), Enter confirms.
    await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    if (moves % 4 === 0) await page.keyboard.press('1');
    if (moves === 6) {
      await shot(page, '06-keyboard-placement-five-seats');
      // The five players fit the side panel on a phone as well (upright, in the sheet the top
      // bar opens; closed again, and the focus left, so Enter confirms below).
      await page.setViewportSize({ width: 390, height: 844 });
      assert.ok(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), 'no horizontal overflow on a phone');
      await shot(page, '06b-five-seats-phone');
      await page.click('[data-action=sheet]');
      assert.equal(await page.locator('.players .player:visible').count(), 5);
      assert.ok(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), 'no horizontal overflow with the sheet open');
      await shot(page, '06c-five-seats-phone-sheet');
      await page.click('[data-action=sheet]');
      await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.keyboard.press('Enter');
    moves++;
  }
  assert.ok(moves >= 10, `played ${moves} moves`);
  await page.waitForSelector('.dialog.end');
  const final = await gameView(page);
  assert.equal(final.status, 'finished');
  assert.equal(final.tilesLeft, 0);
  await shot(page, '07-end-screen');

  // The end screen breaks every score down by feature; the rows add up.
  const rows = await page.$$eval('.scores tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent))));
  assert.equal(rows.length, 5);
  for (const r of rows) assert.equal(r[1] + r[2] + r[3] + r[4], r[5], `row ${r}`);
  const totals = rows.map((r) => r[5]).sort((a, b) => a - b);
  assert.deepEqual(
    totals,
    final.seats.map((s: { score: number }) => s.score).sort((a: number, b: number) => a - b),
  );
  assert.match((await page.textContent('.dialog.end'))!, /Roads.*Cities.*Monasteries.*Farms/s);
  assert.match((await page.textContent('.dialog.end'))!, /★/, 'the fifth seat has its glyph');

  // On a phone, upright and sideways, the five-row end screen and the side panel fit the width.
  for (const [width, height, name] of [
    [390, 844, '07b-end-screen-phone'],
    [844, 390, '07c-end-screen-phone-landscape'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForSelector('.dialog.end');
    assert.ok(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), `no horizontal overflow at ${width}×${height}`);
    const table = (await page.locator('.scores').boundingBox())!;
    assert.ok(table.x >= 0 && table.x + table.width <= width, `the score table fits at ${width}×${height}`);
    assert.ok(await page.$eval('.dialog.end', (d) => d.scrollWidth <= d.clientWidth), `the end screen needs no sideways scroll at ${width}×${height}`);
    await shot(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The replay viewer rebuilds the game from its record: the last step shows the final scores.
  await page.click('.dialog.end a:has-text("Watch the replay")');
  await page.waitForSelector('.replay .moves li');
  await page.waitForFunction(() => Number((globalThis as any).document.querySelector('.game').dataset.step) > 0);
  const lastStep = Number(await page.getAttribute('.game', 'data-step'));
  assert.ok(lastStep >= 71, `the record has ${lastStep} steps`);
  const replayScores = await page.$$eval('.players .p-score', (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(
    replayScores,
    final.seats.map((s: { score: number }) => s.score),
  );
  await shot(page, '08-replay-end');
  await page.click('[data-action=start]');
  assert.equal(await page.getAttribute('.game', 'data-step'), '0');
  for (let i = 0; i < 10; i++) await page.click('[data-action=fwd]');
  assert.equal(await page.getAttribute('.game', 'data-step'), '10');
  assert.equal((await page.locator('.board .layer-tiles use').count()) >= 9, true);
  await page.$eval('[data-action=seek]', (el: any) => {
    el.value = '30';
    el.dispatchEvent(new (globalThis as any).Event('input', { bubbles: true }));
  });
  assert.equal(await page.getAttribute('.game', 'data-step'), '30');
  await shot(page, '09-replay-step-30');

  // Rematch: a new game of the same shape, this browser in its seat.
  await page.goBack();
  await page.waitForSelector('.dialog.end');
  const oldHash = new URL(page.url()).hash;
  await page.click('[data-action=rematch]');
  await page.waitForFunction((h) => (globalThis as any).location.hash !== h && (globalThis as any).location.hash.startsWith('#/g/'), oldHash);
  assert.equal(await waitMyTurn(page), 'mine');
  const again = await gameView(page);
  assert.equal(again.seats.length, 5);
  assert.equal(again.rules.tinyCity, true);
  assert.equal(again.you, 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('invite link: a friend joins an open seat, a third browser watches; phone-sized screen', async () => {
  const host = await newPage();
  await host.page.goto(`${base}/`);
  await host.page.fill('input[name=name]', 'Cy');
  await host.page.selectOption('select[data-opp="0"]', 'open');
  await host.page.click('[data-action=add]');
  await host.page.selectOption('select[data-opp="1"]', 'greedy');
  await host.page.click('button[type=submit]:has-text("Create game")');
  await host.page.waitForSelector('.game[data-status=waiting] .board-banner .invite-input');
  const link = await host.page.inputValue('.invite-input');
  assert.match(link, /#\/g\//);
  await shot(host.page, '10-waiting-for-friend');

  // The friend, on a phone, opens the link, takes the open seat by name.
  const friend = await newPage({ width: 390, height: 844 });
  await friend.page.goto(link);
  await friend.page.waitForSelector('form[data-form=join]');
  await shot(friend.page, '11-phone-join');
  await friend.page.fill('form[data-form=join] input[name=name]', 'Dee');
  await friend.page.click('form[data-form=join] button[type=submit]');
  await friend.page.waitForSelector('.conn[data-conn=open]');
  // (On the phone the players are in the closed sheet: present, not visible.)
  await friend.page.waitForSelector('.player.you[data-seat="1"]', { state: 'attached' });

  // Both see the game start; the host (seat 1) moves first.
  assert.equal(await waitMyTurn(host.page), 'mine');
  const hv = await gameView(host.page);
  assert.equal(hv.status, 'playing');
  assert.equal(hv.seats[1].name, 'Dee');
  await placeByClicking(host.page, hv.legal[0], null);
  // Dee's turn (seat 2) comes next, on the phone.
  assert.equal(await waitMyTurn(friend.page, hv.turn), 'mine');
  await shot(friend.page, '12-phone-my-turn');

  // A watcher with no seat sees the same board and no controls.
  const watcher = await newPage();
  await watcher.page.goto(link);
  await watcher.page.waitForSelector('.game.spectating[data-status=playing]');
  assert.equal(await watcher.page.locator('.player.you').count(), 0, 'no seat is marked as the watcher’s');
  assert.equal(await watcher.page.locator('[data-action=confirm]').count(), 0);
  assert.match((await watcher.page.textContent('.conn'))!, /watching/);
  const wv = await gameView(watcher.page);
  assert.equal(wv.board.length, (await gameView(friend.page)).board.length);
  await shot(watcher.page, '13-spectator');

  for (const x of [host, friend, watcher]) {
    assert.deepEqual(x.errors, []);
    await x.context.close();
  }
});

test('the tile gallery draws all 24 tiles with their follower spots', async () => {
  const { context, page, errors } = await newPage({ width: 1300, height: 900 });
  await page.goto(`${base}/#/tiles`);
  await page.waitForSelector('.gallery-tile');
  // The base tiles' grid (the expansion tiles and figures follow in their own grids).
  assert.equal(await page.locator('.gallery-grid:not([data-gallery]) .gallery-card').count(), 24);
  assert.equal(await page.locator('.gallery-grid:not([data-gallery]) .gallery-tile').count(), 96);
  await page.screenshot({ path: join(SHOTS, '14-tile-gallery.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the dashboard charts the pool live', async () => {
  const { context, page, errors } = await newPage({ width: 1400, height: 1100 });
  await page.goto(`${base}/dashboard`);
  await page.waitForSelector('.panel-card[data-card=spawn] svg rect');
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.kpi').length >= 8);
  // Bots have moved in the games above: the run-time histogram has bars, the workers compute.
  await page.waitForSelector('.panel-card[data-card=run-time] svg rect');
  const cards = await page.$$eval('.panel-card', (els) => els.map((e) => e.getAttribute('data-card')));
  for (const c of ['sizing', 'spawn', 'startup', 'queue', 'queue-wait', 'run-time', 'loop', 'util', 'counters', 'games']) assert.ok(cards.includes(c), `card ${c}`);
  assert.match((await page.textContent('[data-card=sizing]'))!, /worker/);
  assert.match((await page.textContent('[data-card=run-time]'))!, /\d+ tasks/);
  assert.match((await page.textContent('.status'))!, /live/);
  // A few polls later the time series have points.
  await page.waitForTimeout(2500);
  await page.screenshot({ path: join(SHOTS, '15-dashboard.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});
