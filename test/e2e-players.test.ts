// Players in a real browser (issue R): opening the site makes no player; the first game makes
// one under the name typed (no sign-up, no extra click); a passkey is added with Chromium's
// virtual authenticator (CDP WebAuthn domain); a fresh browser context holding the same
// credential signs in with one prompt and finds the same player and games, resumes an unfinished
// one and plays it without a seat token. A name another player holds is refused next to the
// field. The player pages pass axe and the 44 px rule on a phone; deleting asks first, frees the
// name and leaves the games under "deleted player"; signing out leaves the player, and the browser
// forgets its games and seat tokens (a shared computer's next person only watches). Pages are
// opened on `localhost`: WebAuthn refuses an IP address. Screenshots: test-results/e2e/p-*.png.
//
// Needs `npm run build` (the bot worker and the client bundle).

import assert from 'node:assert/strict';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { CHROMIUM, needing } from './support/needs.ts';
import { type E2E, axeProblems, gameView, shot, smallTargets, startE2E, turnOf, waitMyTurn } from './support/e2e.ts';

const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;
/** WebAuthn refuses an IP address as the relying party: the pages are opened on `localhost`. */
let base: string;

before(async () => {
  e2e = await startE2E();
  base = e2e.base.replace('127.0.0.1', 'localhost');
});

after(() => e2e?.close());

const PHONE = { width: 390, height: 844 };

/** GET /api/session, as the page reads it. */
type Session = { player: { id: string; name: string; passkeys: number } | null };

interface Authenticator {
  cdp: CDPSession;
  id: string;
}

/** A platform authenticator in the page's browser context that says yes at once: resident keys
 * (discoverable credentials: sign-in asks no name) and user verification, as a phone's screen
 * lock does. */
async function virtualAuthenticator(context: BrowserContext, page: Page): Promise<Authenticator> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, id: authenticatorId };
}

/** The player this page's session belongs to, as GET /api/session answers (null: none yet). */
const sessionOf = async (page: Page) => ((await page.evaluate(() => fetch('/api/session').then((r) => r.json()))) as Session).player;

/** The account bar is drawn: the page knows whether this browser has a player. */
const barDrawn = (page: Page) => page.waitForSelector('.player-bar .player-chip');

/** The account chip names this player. */
const chipSays = (page: Page, name: string) => page.waitForFunction((n) => (globalThis as any).document.querySelector('.player-chip .player-name')?.textContent === n, name);

/** Plays every turn of this browser by keyboard (next legal cell, sometimes a follower, Enter)
 * until the game ends; returns the moves played. */
async function playToTheEnd(page: Page): Promise<number> {
  let turn = -1;
  let moves = 0;
  for (;;) {
    if ((await waitMyTurn(page, turn, 30000)) === 'finished') return moves;
    turn = await turnOf(page);
    await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    if (moves % 4 === 0) await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    moves++;
  }
}

test('a guest plays a rated game at once, adds a passkey, and signs in on a fresh browser with one prompt: same player, games and rating, played on there', async () => {
  const a = await e2e.newPage();
  await a.page.goto(`${base}/`);
  await barDrawn(a.page);
  assert.equal(await sessionOf(a.page), null, 'opening the site makes no player');

  // The first game makes the player, under the name typed: no sign-up, no extra click. A rated
  // table of the person and four random bots (one rated player, `bot:random`).
  await a.page.fill('input[name=name]', 'Ada');
  await a.page.selectOption('select[data-opp="0"]', 'random');
  for (let i = 1; i < 4; i++) {
    await a.page.click('[data-action=add]');
    await a.page.selectOption(`select[data-opp="${i}"]`, 'random');
  }
  await a.page.check('input[name=hints]');
  await a.page.check('input[name=rated]');
  assert.ok(await a.page.locator('input[name=hints]').isDisabled(), 'a rated game has no hints');
  assert.equal(await a.page.isChecked('input[name=hints]'), false);
  await a.page.click('button[type=submit]:has-text("Create game")');
  await a.page.waitForURL(/#\/g\//);
  const gameId = decodeURIComponent(a.page.url().split('#/g/')[1]);
  const ada = (await sessionOf(a.page))!;
  assert.equal(ada.name, 'Ada');
  assert.equal(ada.passkeys, 0);
  const moves = await playToTheEnd(a.page);
  assert.ok(moves >= 10, `played ${moves} moves`);
  await a.page.waitForSelector('.dialog.end');
  const final = await gameView(a.page);
  assert.equal(final.status, 'finished');
  assert.equal(final.rated, true);
  // Every seat of a rated game is a rated player: the end screen shows five ratings, moved by it.
  await a.page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.dialog.end .scores .rating').length === 5);
  assert.match((await a.page.textContent('.dialog.end'))!, /A rated game/);
  const adaRow = a.page.locator('.dialog.end .scores tr', { hasText: 'Ada' });
  const endRating = (await adaRow.locator('.rating').textContent())!.replace(/\D+/g, '');
  assert.match(endRating, /^\d+$/);
  await shot(a.page, 'p-01-end-screen-rated');
  // The ratings beside five names still fit a phone's end screen.
  await a.page.setViewportSize(PHONE);
  assert.ok(await a.page.$eval('.dialog.end', (d) => d.scrollWidth <= d.clientWidth), 'the end screen needs no sideways scroll on a phone');
  await shot(a.page, 'p-01b-end-screen-rated-phone');
  await a.page.setViewportSize({ width: 1280, height: 800 });

  // The leaderboard lists the random bot level; Ada, provisional after one game, waits, and the
  // page says what a person needs to be listed.
  await a.page.goto(`${base}/#/leaderboard`);
  await a.page.locator('tbody tr.bot', { hasText: /random bot/i }).waitFor();
  assert.equal(await a.page.locator('tbody tr.bot', { hasText: /random bot/i }).count(), 1, 'the four random bots are one rated player');
  assert.equal(await a.page.locator('tbody tr', { hasText: 'Ada' }).count(), 0, 'one rated game: provisional, not listed');
  assert.match((await a.page.textContent('.requires'))!, /after 5 rated games against at least 3 different opponents/);
  await shot(a.page, 'p-02-leaderboard');

  const playerId = ada.id;
  // A passkey from the virtual authenticator: the page says so and the session counts it.
  const authA = await virtualAuthenticator(a.context, a.page);
  await a.page.goto(`${base}/#/me`);
  await a.page.click('[data-action=add-passkey]');
  await a.page.waitForSelector('text=One passkey');
  const { credentials } = await authA.cdp.send('WebAuthn.getCredentials', { authenticatorId: authA.id });
  assert.equal(credentials.length, 1);
  assert.ok(credentials[0].isResidentCredential, 'a discoverable credential: signing in asks no name');

  // A second game, left at Ada's turn: the other device will play it on.
  await a.page.goto(`${base}/`);
  await a.page.waitForSelector('.lobby .player-chip');
  await a.page.selectOption('select[data-opp="0"]', 'random');
  await a.page.click('button[type=submit]:has-text("Create game")');
  await a.page.waitForURL(/#\/g\//);
  const openId = decodeURIComponent(a.page.url().split('#/g/')[1]);
  await waitMyTurn(a.page);
  await a.page.goto(`${base}/#/me`);

  // A fresh browser (no cookie, no storage) on a phone: a new guest, until one passkey prompt.
  const b = await e2e.newPage(PHONE);
  const authB = await virtualAuthenticator(b.context, b.page);
  await authB.cdp.send('WebAuthn.addCredential', { authenticatorId: authB.id, credential: credentials[0] });
  await b.page.goto(`${base}/#/me`);
  await b.page.waitForSelector('[data-action=sign-in]');
  assert.equal(await sessionOf(b.page), null, 'a fresh browser has no player');
  await shot(b.page, 'p-03-sign-in-phone');
  await b.page.click('[data-action=sign-in]');
  await chipSays(b.page, 'Ada');
  assert.equal((await sessionOf(b.page))?.id, playerId, 'the same player, after one prompt');
  await shot(b.page, 'p-04-signed-in-phone');

  // The same games: the lobby lists the finished game from the player's list (no seat token here).
  assert.equal(await b.page.evaluate(() => localStorage.getItem('tessera.seats.v1')), null);
  await b.page.goto(`${base}/#/`);
  await b.page.waitForSelector(`[data-list=mine] a[href="#/replay/${encodeURIComponent(gameId)}"]`);
  await shot(b.page, 'p-05-your-games-phone');
  // The unfinished one is resumed and played from here, by the session alone.
  await b.page.click(`[data-list=mine] a[href="#/g/${encodeURIComponent(openId)}"]`);
  assert.equal(await waitMyTurn(b.page), 'mine');
  const before = await turnOf(b.page);
  await b.page.keyboard.press('n');
  await b.page.waitForSelector('.layer-tentative .tentative');
  await b.page.keyboard.press('Enter');
  await b.page.waitForFunction((t) => Number((globalThis as any).document.querySelector('.game')?.dataset.turn) > t, before);

  // The same rating on the profile, with its chart; the finished game with replay and analysis links.
  await b.page.goto(`${base}/#/players/${encodeURIComponent(playerId)}`);
  await b.page.waitForSelector('.big-number');
  assert.equal(await b.page.getAttribute('.big-number', 'data-rating'), endRating);
  await b.page.waitForSelector('.chart svg path');
  await b.page.waitForSelector(`a[href="#/replay/${encodeURIComponent(gameId)}?analyse"]`);
  assert.ok(await b.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), 'no horizontal overflow on a phone');
  await shot(b.page, 'p-06-profile-phone');
  await b.page.goto(`${base}/#/leaderboard`);
  await b.page.waitForSelector('tbody tr.bot');
  assert.ok(await b.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), 'no horizontal overflow on a phone');
  await shot(b.page, 'p-06b-leaderboard-phone');
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});

test('a name another player holds is refused next to the field, and nothing is created', async () => {
  const a = await e2e.newPage();
  await a.page.goto(`${base}/#/me`);
  await a.page.fill('input[name=name]', 'Zed');
  await a.page.click('button[type=submit]:has-text("Start my player")');
  await chipSays(a.page, 'Zed');

  // Another browser: the same name in other case is the same name.
  const b = await e2e.newPage(PHONE);
  await b.page.goto(`${base}/`);
  await barDrawn(b.page);
  await b.page.fill('input[name=name]', 'zed');
  await b.page.click('button[type=submit]:has-text("Create game")');
  await b.page.waitForSelector('#name-note.error');
  assert.match((await b.page.textContent('#name-note'))!, /taken/);
  assert.equal(await b.page.getAttribute('input[name=name]', 'aria-invalid'), 'true');
  assert.match(b.page.url(), /\/(#\/?)?$/, 'still in the lobby: no game was created');
  assert.equal(await sessionOf(b.page), null, 'no player was made under a taken name');
  await shot(b.page, 'p-07-name-taken-phone');
  await a.context.close();
  await b.context.close();
});

test('the player pages pass axe and the 44 px rule on a phone; delete asks first, frees the name and leaves the games; sign out leaves the player', async () => {
  const c = await e2e.newPage(PHONE);
  await c.page.goto(`${base}/`);
  await barDrawn(c.page);
  assert.deepEqual(await axeProblems(c.page), [], 'lobby with the account bar');
  await c.page.fill('input[name=name]', 'Eve');
  await c.page.selectOption('select[data-opp="0"]', 'random');
  await c.page.click('button[type=submit]:has-text("Create game")');
  await c.page.waitForURL(/#\/g\//);
  const gameId = decodeURIComponent(c.page.url().split('#/g/')[1]);
  await waitMyTurn(c.page);
  const eve = (await sessionOf(c.page))!;

  for (const [hash, ready, name] of [
    ['#/me', '[data-action=add-passkey]', 'account page'],
    [`#/players/${encodeURIComponent(eve.id)}`, '#recent-title', 'profile'],
    ['#/leaderboard', 'tbody tr', 'leaderboard'],
  ] as const) {
    await c.page.goto(`${base}/${hash}`);
    await c.page.waitForSelector(ready);
    assert.deepEqual(await axeProblems(c.page), [], name);
    assert.deepEqual(await smallTargets(c.page), [], name);
    assert.ok(await c.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth), `${name}: no horizontal overflow`);
  }

  // Delete: a dialog says what happens, keyboard-reachable; nothing changes until confirmed.
  await c.page.goto(`${base}/#/me`);
  assert.equal(await c.page.inputValue('input[name=name]'), 'Eve', 'the page shows the name given in the lobby');
  await c.page.click('[data-action=ask-delete]');
  await c.page.waitForSelector('dialog.confirm-delete[open]');
  assert.match((await c.page.textContent('dialog.confirm-delete'))!, /games you played stay.*“deleted player”/s);
  assert.deepEqual(await axeProblems(c.page), [], 'delete dialog');
  await shot(c.page, 'p-08-delete-phone');
  await c.page.keyboard.press('Escape');
  assert.equal(await c.page.locator('dialog.confirm-delete[open]').count(), 0);
  assert.equal((await sessionOf(c.page))?.id, eve.id, 'Escape deletes nothing');
  await c.page.click('[data-action=ask-delete]');
  await c.page.click('[data-action=confirm-delete]');
  await chipSays(c.page, 'Your player');
  assert.equal(await sessionOf(c.page), null, 'this browser has no player now');
  // The store renames the seats in the delete's transaction; a game already held in memory keeps
  // the old name until it is loaded again, so the game is read after a restart.
  await e2e.restart();
  const game = (await c.page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), gameId)) as { seats: { name: string | null }[] };
  assert.equal(game.seats[0].name, 'deleted player', "the game stays, the deleted player's name replaced");

  // The name is free again. Signing out leaves this browser without a player, and the name with
  // its player.
  const d = await e2e.newPage(PHONE);
  await d.page.goto(`${base}/#/me`);
  await d.page.fill('input[name=name]', 'Eve');
  await d.page.click('button[type=submit]:has-text("Start my player")');
  await chipSays(d.page, 'Eve');
  await d.page.click('[data-action=sign-out]');
  await chipSays(d.page, 'Your player');
  assert.equal(await sessionOf(d.page), null);
  await d.page.fill('input[name=name]', 'Eve');
  await d.page.click('button[type=submit]:has-text("Start my player")');
  await d.page.waitForSelector('#rename-note.error');
  assert.match((await d.page.textContent('#rename-note'))!, /taken/);
  await c.context.close();
  await d.context.close();
});

test('signing out forgets the player here: on a shared computer the next person sees none of their games and cannot play their seat', async () => {
  const a = await e2e.newPage();
  await a.page.goto(`${base}/`);
  await barDrawn(a.page);
  await a.page.fill('input[name=name]', 'Mia');
  await a.page.selectOption('select[data-opp="0"]', 'random');
  await a.page.click('button[type=submit]:has-text("Create game")');
  await a.page.waitForURL(/#\/g\//);
  const gameId = decodeURIComponent(a.page.url().split('#/g/')[1]);
  await waitMyTurn(a.page);
  const resume = `[data-list=mine] a[href="#/g/${encodeURIComponent(gameId)}"]`;
  await a.page.goto(`${base}/`);
  await a.page.waitForSelector(resume);

  await a.page.goto(`${base}/#/me`);
  await a.page.click('[data-action=sign-out]');
  await chipSays(a.page, 'Your player');
  assert.equal(await a.page.evaluate(() => (globalThis as any).localStorage.getItem('tessera.seats.v1')), null, 'no seat token left in this browser');
  assert.equal(await a.page.evaluate(() => (globalThis as any).localStorage.getItem('tessera.name')), null, 'nor the name');

  // The next person: the lobby lists no game of Mia's, and her game only lets them watch.
  await a.page.goto(`${base}/`);
  await a.page.waitForSelector('[data-list=mine] li.muted');
  assert.equal(await a.page.locator(resume).count(), 0, "Mia's game is not listed");
  await a.page.goto(`${base}/#/g/${encodeURIComponent(gameId)}`);
  await a.page.reload();
  await a.page.waitForFunction((id) => (globalThis as any).e2eWire?.view?.gameId === id, gameId);
  assert.equal((await gameView(a.page)).you, null, 'the game is watched, not played');
  assert.equal(await sessionOf(a.page), null, 'watching made no player');
  await a.context.close();
});
