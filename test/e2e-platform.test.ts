// The platform features in a real browser: the real server (buildApp on 127.0.0.1, port 0,
// a temp data dir) and Debian's Chromium driven by playwright-core. Table talk between two
// seated players and a watcher (quick messages, free text that stays text, mute remembered);
// game sounds synthesized with WebAudio, switched off with one click and remembered; the rules
// page reached from the lobby and from a game; axe-core finds no serious or critical problem on
// the lobby, the rules page, the game screen and the replay viewer, at desktop and phone size; turns and scorings are announced in a live
// region while the game is played from the keyboard. Screenshots go to test-results/e2e/.
//
// Needs `npm run build` (the bot worker and the client bundle).

import assert from 'node:assert/strict';
import { CHROMIUM, needing } from './support/needs.ts';
import type { BrowserContext, Page } from 'playwright-core';
import { Client, createGame, playUntilOver } from './server-helpers.ts';
import { type E2E, axeProblems, shot, startE2E, turnOf } from './support/e2e.ts';

// Without Chromium, skipped with one line each; under CI=true they fail.
const { test, before, after } = needing([CHROMIUM]);

// The machine running the tests may be busy: waits are generous.
const WAIT = 30000;

let e2e: E2E;
let base: string;

before(async () => {
  e2e = await startE2E({
    args: ['--autoplay-policy=no-user-gesture-required'],
    // Counts the oscillators the game starts: the sounds are synthesized, so this is what plays.
    onContext: (context) =>
      context.addInitScript(() => {
        const w = globalThis as any;
        w.__oscillators = 0;
        const create = w.AudioContext.prototype.createOscillator;
        w.AudioContext.prototype.createOscillator = function (this: unknown) {
          w.__oscillators++;
          return create.call(this);
        };
      }),
  });
  base = e2e.base;
});

after(() => e2e?.close());

const newPage = (viewport?: { width: number; height: number }) => e2e.newPage(viewport);

/** Puts a seat token into the browser's storage as the lobby would after taking the seat. */
async function holdSeat(context: BrowserContext, gameId: string, seat: number, token: string, name: string): Promise<void> {
  await context.addInitScript(
    ([g, s, t, n]) => {
      const all = JSON.parse(localStorage.getItem('tessera.seats.v1') ?? '{}');
      all[g as string] = { gameId: g, seat: s, token: t, name: n, at: Date.now() };
      localStorage.setItem('tessera.seats.v1', JSON.stringify(all));
    },
    [gameId, seat, token, name] as const,
  );
}

const myTurnAfter = (page: Page, turn: number) =>
  page.waitForFunction(
    (t) => {
      const g = (globalThis as any).document.querySelector('.game');
      return !!g && (g.dataset.status === 'finished' || (g.classList.contains('my-turn') && Number(g.dataset.turn) > t));
    },
    turn,
    { timeout: WAIT },
  );
/** Creates a game against a random bot from the lobby and waits for the first turn. Names are
 * unique among players, and each browser here is a player of its own: `name` differs per test. */
async function startBotGame(page: Page, name = 'Kit'): Promise<void> {
  await page.goto(`${base}/`);
  await page.waitForSelector('.lobby');
  await page.fill('input[name=name]', name);
  await page.selectOption('select[data-opp="0"]', 'random');
  await page.click('button[type=submit]:has-text("Create game")');
  await page.waitForURL(/#\/g\//);
  await myTurnAfter(page, -1);
}
const oscillators = (page: Page) => page.evaluate(() => (globalThis as any).__oscillators as number);

test('lobby and rules page: no serious accessibility problem; the rules are linked and drawn with tile art', async () => {
  const { context, page, errors } = await newPage();
  await page.goto(`${base}/`);
  await page.waitForSelector('.lobby');
  assert.deepEqual(await axeProblems(page), [], 'lobby');
  await page.click('a[href="#/rules"]');
  await page.waitForSelector('.rules-page');
  const text = (await page.textContent('.rules-page'))!;
  for (const words of [
    'city against city, road against road',
    'Knight',
    'Thief',
    'Monk',
    'Farmer',
    '2 points a tile',
    '3 points for each completed city',
    'last tile',
    'The spring replaces the start tile',
    'large follower',
    'take the abbot back',
    'nothing if it is still unfinished',
  ])
    assert.ok(text.includes(words), `the rules say "${words}"`);
  assert.ok((await page.locator('.rules-page svg use[href^="#tile-"]').count()) >= 15, 'tiles are drawn');
  assert.ok((await page.locator('.rules-page .meeple').count()) >= 5, 'followers are drawn on their spots');
  assert.deepEqual(await axeProblems(page), [], 'rules page');
  await shot(page, 'k-rules-page');
  await page.click('a[href="#rules-farms"]');
  assert.match(page.url(), /#\/rules$/, 'in-page links do not leave the page');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#rules-followers').scrollIntoViewIfNeeded();
  assert.ok(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth + 1), 'no sideways scrolling on a phone');
  await shot(page, 'k-rules-phone');
  assert.deepEqual(errors, []);
  await context.close();
});

test('game screen: axe finds nothing serious, turns and scorings are announced, keyboard play, sounds on and off', async () => {
  const { context, page, errors } = await newPage();
  await startBotGame(page);
  await page.waitForSelector('.conn[data-conn=open]');
  await page.waitForFunction(() => /Your turn/.test((globalThis as any).document.querySelector('[data-announce]')?.textContent ?? ''));
  assert.deepEqual(await axeProblems(page), [], 'game screen');
  assert.equal(await page.getAttribute('[data-announce]', 'aria-live'), 'polite');
  // Keyboard only: N picks a square, 0 no follower, Enter confirms. The placement sounds.
  const before = await oscillators(page);
  let turn = await turnOf(page);
  await page.keyboard.press('n');
  await page.waitForSelector('.layer-tentative .tentative');
  // While placing: Confirm (the primary button, with its key hint) is enabled.
  assert.deepEqual(await axeProblems(page), [], 'game screen while placing');
  await page.keyboard.press('0');
  await page.keyboard.press('Enter');
  await myTurnAfter(page, turn);
  // The bot's move and whose turn it is are read out by the bot's name (seat 2's bot is
  // Bertha): "Bertha placed …. Your turn."
  await page.waitForFunction(() => /Bertha placed .*Your turn\./.test((globalThis as any).document.querySelector('[data-announce]')?.textContent ?? ''));
  assert.ok((await oscillators(page)) > before, 'placing and the turn coming back made sounds');
  assert.deepEqual(await axeProblems(page), [], 'game screen during play');
  await shot(page, 'k-game-screen');

  // One click turns sounds off; the choice survives a reload; nothing plays any more.
  const toggle = page.locator('[data-sound-toggle]');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  assert.equal(await page.evaluate(() => localStorage.getItem('tessera.sound.v1')), 'off');
  await page.reload();
  await myTurnAfter(page, -1);
  assert.equal(await page.locator('[data-sound-toggle]').getAttribute('aria-pressed'), 'false');
  assert.equal((await page.textContent('[data-sound-toggle]'))!.trim(), 'Sound off');
  turn = await turnOf(page);
  await page.keyboard.press('n');
  await page.waitForSelector('.layer-tentative .tentative');
  await page.keyboard.press('Enter');
  await myTurnAfter(page, turn);
  assert.equal(await oscillators(page), 0, 'no sound once switched off');
  await page.locator('[data-sound-toggle]').click();
  assert.equal(await page.evaluate(() => localStorage.getItem('tessera.sound.v1')), 'on');

  // Play on by keyboard until a scoring is read out: a feature completed during play, or at
  // the latest the final scoring (followers are placed every other turn). Every line added to
  // the live region is recorded, as a screen reader would hear them.
  await page.evaluate(() => {
    const g = globalThis as any;
    g.__heard = [];
    new g.MutationObserver((records: any[]) => {
      for (const r of records) for (const n of r.addedNodes) g.__heard.push(n.textContent);
    }).observe(g.document.querySelector('[data-announce]'), { childList: true });
  });
  const heard = () => page.evaluate(() => (globalThis as any).__heard as string[]);
  // Enter on a focused button presses it: leave the sound button before playing by keys.
  await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
  for (let i = 0; !(await heard()).some((h) => /scores? \d+/.test(h)); i++) {
    if ((await page.getAttribute('.game', 'data-status')) === 'finished') break;
    turn = await turnOf(page);
    await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    await page.keyboard.press(i % 2 ? '1' : '0');
    await page.keyboard.press('Enter');
    await myTurnAfter(page, turn).catch(async (e) => {
      await shot(page, 'k-debug');
      throw new Error(`${e.message}; toast: ${await page.textContent('#toast').catch(() => '')}; heard: ${(await heard()).slice(-3).join(' / ')}`);
    });
    await page.waitForFunction(() => /(Your turn|Game over)/.test((globalThis as any).document.querySelector('[data-announce]')?.lastElementChild?.textContent ?? ''));
  }
  const lines = await heard();
  assert.ok(
    lines.some((h) => /scores? \d+ for a/.test(h)),
    `a scoring was announced: ${lines.join(' / ')}`,
  );
  assert.ok(
    lines.some((h) => /^Kit placed /.test(h)),
    'my own moves are read out too',
  );

  // The rules are one click away from the game (a new tab keeps the game open); if the game
  // ended meanwhile, the end screen is closed first.
  if (await page.locator('.overlay').isVisible()) await page.keyboard.press('Escape');
  const [rules] = await Promise.all([context.waitForEvent('page'), page.click('.topbar a[href="#/rules"]')]);
  await rules.waitForSelector('.rules-page');
  await rules.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test('table talk: seats talk, the watcher reads only, typed markup stays text, mute is per game and remembered', async () => {
  const { id, tokens } = await createGame(base, [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }], (s) => ['Ann', 'Bob'][s]);
  const ann = await newPage();
  const bob = await newPage();
  const eve = await newPage({ width: 390, height: 844 });
  await holdSeat(ann.context, id, 0, tokens.get(0)!, 'Ann');
  await holdSeat(bob.context, id, 1, tokens.get(1)!, 'Bob');
  for (const { page } of [ann, bob, eve]) {
    await page.goto(`${base}/#/g/${id}`);
    await page.waitForSelector('.conn[data-conn=open]');
  }

  // A quick message from Ann reaches Bob and the watcher.
  await ann.page.click('.chat-quick [data-quick=good_luck]');
  for (const { page } of [ann, bob]) await page.waitForSelector('.chat-msg:has-text("Good luck!")');
  // On the phone the talk is in the sheet (with the players and tiles left), closed while the
  // board is in use: its toggle in the top bar counts the messages that came meanwhile.
  await eve.page.waitForSelector('.sheet-toggle .sheet-unread:not([hidden])');
  assert.match((await eve.page.textContent('.sheet-unread'))!, /^1 \(1 new message\)$/);
  assert.ok(await eve.page.locator('.chat-box').isHidden());
  await shot(eve.page, 'k-chat-unread-phone');
  assert.deepEqual(await axeProblems(eve.page), [], 'phone game screen: icon buttons, the unread count');
  await eve.page.click('[data-action=sheet]');
  await eve.page.waitForSelector('.chat-msg:has-text("Good luck!")');
  assert.ok(await eve.page.locator('.sheet-unread').isHidden(), 'the count is cleared once the sheet is open');
  assert.match((await bob.page.textContent('.chat-msg'))!, /Ann: Good luck!/);

  // Free text with markup in it is shown as typed, never run.
  const hostile = '<img src=x onerror="window.__xss=1">hi <b>there</b>';
  await bob.page.fill('.chat-form input', hostile);
  await bob.page.keyboard.press('Enter');
  for (const { page } of [ann, bob, eve]) {
    await page.waitForSelector('.chat-msg:has-text("onerror")');
    assert.equal(await page.locator('.chat-list img, .chat-list b').count(), 0, 'no element was made from the text');
    assert.equal(await page.locator('.chat-msg').last().locator('.chat-text').textContent(), hostile);
    assert.equal(await page.evaluate(() => (globalThis as any).__xss), undefined);
  }
  // Enter in the chat box sent the message: it did not confirm a move or rotate a tile.
  assert.equal(await bob.page.inputValue('.chat-form input'), '');

  // The watcher reads but has nothing to write with.
  assert.ok(await eve.page.locator('.chat-form').isHidden());
  assert.ok(await eve.page.locator('.chat-quick').isHidden());
  assert.ok(await eve.page.locator('.chat-watch').isVisible());
  await eve.page.locator('.chat-box').scrollIntoViewIfNeeded();
  await shot(eve.page, 'k-chat-watcher-phone');

  // Ann mutes this game's talk: Bob's next message is not shown to her, and that is remembered.
  await ann.page.click('[data-chat=mute]');
  assert.equal(await ann.page.getAttribute('[data-chat=mute]', 'aria-pressed'), 'true');
  assert.equal(await ann.page.locator('.chat-msg:has-text("onerror")').count(), 0, 'muting hides what others said');
  await bob.page.click('.chat-quick [data-quick=oops]');
  await eve.page.waitForSelector('.chat-msg:has-text("Oops!")');
  await ann.page.waitForSelector('.chat-muted:has-text("2 messages hidden")');
  assert.equal(await ann.page.locator('.chat-msg:has-text("Oops!")').count(), 0);
  await ann.page.reload();
  await ann.page.waitForSelector('.conn[data-conn=open]');
  assert.equal(await ann.page.getAttribute('[data-chat=mute]', 'aria-pressed'), 'true');
  assert.equal(await ann.page.locator('.chat-msg:has-text("Oops!")').count(), 0);
  await ann.page.click('[data-chat=mute]');
  // Unmuted: the recent talk (kept by the server, handed back on reconnect) is all there.
  await ann.page.waitForSelector('.chat-msg:has-text("Oops!")');
  assert.equal(await ann.page.locator('.chat-msg').count(), 3);

  // On a phone the quick messages are one row that scrolls sideways; the page does not.
  await ann.page.setViewportSize({ width: 390, height: 844 });
  await ann.page.click('[data-action=sheet]');
  await ann.page.locator('.chat-box').scrollIntoViewIfNeeded();
  const quickRow = (await ann.page.locator('.chat-quick').boundingBox())!;
  assert.ok(quickRow.height < 60, `one row of quick messages (${quickRow.height} px high)`);
  assert.ok(await ann.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth + 1), 'no sideways page scroll');
  await shot(ann.page, 'k-chat-phone');
  assert.deepEqual(await axeProblems(ann.page), [], 'phone game screen with the sheet open');

  // Bob's view with the talk, for the eye.
  await bob.page.locator('.chat-box').scrollIntoViewIfNeeded();
  await shot(bob.page, 'k-chat-player');
  assert.deepEqual(await axeProblems(bob.page), [], 'game screen with table talk');
  for (const p of [ann, bob, eve]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});

test('end screen and replay viewer: no serious accessibility problem', async () => {
  // A whole game played by the Node client against a random bot, then opened in the browser.
  const { id, tokens } = await createGame(base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], () => 'Max');
  const me = await Client.join(`${base.replace('http', 'ws')}/ws`, id, tokens.get(0));
  await playUntilOver(new Map([[0, me]]), 60000);
  me.close();
  const { context, page, errors } = await newPage();
  await holdSeat(context, id, 0, tokens.get(0)!, 'Max');
  await page.goto(`${base}/#/g/${id}`);
  await page.waitForSelector('.overlay .end');
  await page.waitForFunction(() => /Game over/.test((globalThis as any).document.querySelector('[data-announce]')?.textContent ?? ''));
  assert.deepEqual(await axeProblems(page), [], 'end screen');
  await shot(page, 'k-end-screen');
  // Nobody analysed this game: opening its replay logs nothing in the console and no request
  // fails (the shared harness lets 404s pass, so every console line and answer is kept here).
  const consoleLines: string[] = [];
  const failed: string[] = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
  await page.goto(`${base}/#/replay/${id}`);
  await page.waitForSelector('.replay-controls');
  await page.waitForSelector('.analysis-box [data-action=analyse]');
  assert.deepEqual(failed, [], 'no request of the replay fails');
  assert.deepEqual(
    consoleLines.filter((l) => /^(error|warning)/.test(l)),
    [],
    'nothing logged',
  );
  assert.deepEqual(await axeProblems(page), [], 'replay viewer');
  await shot(page, 'k-replay');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone size: axe finds nothing serious on the lobby, the rules page, the game screen and the replay viewer', async () => {
  const { id, tokens } = await createGame(base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], () => 'Max');
  const me = await Client.join(`${base.replace('http', 'ws')}/ws`, id, tokens.get(0));
  await playUntilOver(new Map([[0, me]]), 60000);
  me.close();
  const { context, page, errors } = await newPage({ width: 390, height: 844 });
  await page.goto(`${base}/`);
  await page.waitForSelector('.lobby');
  assert.deepEqual(await axeProblems(page), [], 'phone lobby');
  await page.goto(`${base}/#/rules`);
  await page.waitForSelector('.rules-page');
  assert.deepEqual(await axeProblems(page), [], 'phone rules page');
  await startBotGame(page, 'Kim');
  assert.deepEqual(await axeProblems(page), [], 'phone game screen');
  // While placing: the follower choices and Confirm are on screen.
  await page.keyboard.press('n');
  await page.waitForSelector('.layer-tentative .tentative');
  assert.deepEqual(await axeProblems(page), [], 'phone game screen while placing');
  await page.goto(`${base}/#/replay/${id}`);
  await page.waitForSelector('.replay-controls');
  assert.deepEqual(await axeProblems(page), [], 'phone replay viewer');
  await shot(page, 'k-replay-phone');
  assert.deepEqual(errors, []);
  await context.close();
});
