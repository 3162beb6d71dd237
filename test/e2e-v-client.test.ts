// Issue 44 (V), in a real browser: a six-seat rated game with the River, Inns & Cathedrals and
// the Abbot, played by keyboard to its end under a name of the longest length, read as a new
// player reads it on a desktop and a phone: the player cards keep every score in view, the
// figures left read as numbers, the end screen opens on its title and winner with each rating's
// change and why it moves, and each bot keeps one name in the game, on the end screen, in the
// replay and on the profile (whose recent games show the change too). Beside it: the own seat's
// badge once the view names the seat (a cookie-only browser), the lobby's name field, headings and
// landmarks axe-core asks for. Screenshots: test-results/e2e/v-*.png.
//
// Needs `npm run build` (the bot worker and the client bundle).

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { BOT_DISPLAY_NAMES, MAX_NAME_LENGTH } from '../server/wire/limits.ts';
import { CHROMIUM, needing } from './support/needs.ts';
import { type E2E, SHOTS, gameView, shot, startE2E, turnOf, waitMyTurn } from './support/e2e.ts';

const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;
before(async () => {
  e2e = await startE2E();
});
after(() => e2e?.close());

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** The server's longest name. */
const LONG_NAME = 'Maximiliana Wolkenstein'.padEnd(MAX_NAME_LENGTH, 'x');
const LEVELS = ['greedy', 'random', 'greedy', 'random', 'greedy'] as const;

/** Every player card fits its panel: nothing wider than the card, the score inside it. */
async function cardsFit(page: Page): Promise<string[]> {
  return page.$$eval('.players .player', (cards) =>
    cards.flatMap((card: any) => {
      const seat = card.dataset.seat;
      const box = card.getBoundingClientRect();
      const score = card.querySelector('.p-score').getBoundingClientRect();
      const panel = card.closest('.players-box, .panel').getBoundingClientRect();
      const out = [];
      if (card.scrollWidth > card.clientWidth + 1) out.push(`seat ${seat}: content ${card.scrollWidth} px in ${card.clientWidth}`);
      if (box.right > panel.right + 1) out.push(`seat ${seat}: card ends at ${Math.round(box.right)}, panel at ${Math.round(panel.right)}`);
      if (score.width < 8 || score.right > box.right || score.left < box.left) out.push(`seat ${seat}: score not within its card`);
      return out;
    }),
  );
}

/** axe-core's findings of the given rules (moderate ones included). */
async function axeRules(page: Page, rules: string[]): Promise<string[]> {
  const { createRequire } = await import('node:module');
  const { readFileSync } = await import('node:fs');
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8') });
  const result = await page.evaluate(async (only) => (globalThis as any).axe.run((globalThis as any).document, { runOnly: { type: 'rule', values: only }, resultTypes: ['violations'] }), rules);
  return result.violations.map((v: any) => v.id);
}

/** One turn by keyboard: the next legal cell, a figure now and then, Enter. */
async function playTurn(page: Page, n: number): Promise<void> {
  await page.keyboard.press('n');
  await page.waitForSelector('.layer-tentative .tentative');
  if (n % 3 === 0) await page.keyboard.press('1');
  await page.keyboard.press('Enter');
}

test('a six-seat rated game with every expansion, to its end and after, on a desktop and a phone', async (t) => {
  const { context, page, errors } = await e2e.newPage(DESKTOP);
  await page.goto(`${e2e.base}/`);

  await t.test('the lobby: one main landmark; the name field stops at the longest name and says so', async () => {
    assert.deepEqual(await axeRules(page, ['landmark-one-main', 'page-has-heading-one']), []);
    const field = page.locator('input[name=name]');
    await field.fill('');
    await field.pressSequentially('A'.repeat(MAX_NAME_LENGTH + 6));
    assert.equal((await field.inputValue()).length, MAX_NAME_LENGTH);
    assert.match((await page.textContent('#name-note')) ?? '', new RegExp(`up to ${MAX_NAME_LENGTH} characters`));
  });

  await page.fill('input[name=name]', LONG_NAME);
  for (const option of ['innsCathedrals', 'river', 'abbot']) await page.check(`input[name=${option}]`);
  await page.selectOption('select[data-opp="0"]', LEVELS[0]);
  for (let i = 1; i < LEVELS.length; i++) {
    await page.click('[data-action=add]');
    await page.selectOption(`select[data-opp="${i}"]`, LEVELS[i]);
  }
  await page.check('input[name=rated]');
  await page.click('button[type=submit]:has-text("Create game")');
  await page.waitForURL(/#\/g\//);
  const gameId = decodeURIComponent(page.url().split('#/g/')[1]);
  await waitMyTurn(page);

  await t.test('the game: a heading one', async () => assert.deepEqual(await axeRules(page, ['page-has-heading-one', 'landmark-one-main']), []));
  await t.test('the game: the player cards fit, the longest name truncated, every score shown', async () => {
    assert.deepEqual(await cardsFit(page), []);
    assert.equal(await page.getAttribute('.player[data-seat="0"] .p-name-text', 'title', { timeout: 2000 }), LONG_NAME, 'the whole name in its title');
  });

  await t.test('the figures left read as numbers beside each kind', async () => {
    const v = await gameView(page);
    for (const s of v.seats) {
      const card = page.locator(`.player[data-seat="${s.seat}"]`);
      for (const [figure, left] of [
        ['follower', s.followers],
        ['large', s.large],
        ['abbot', s.abbots],
      ] as const)
        assert.equal(await card.locator(`.fig[data-figure=${figure}] .fig-count`).textContent(), String(left), `seat ${s.seat} ${figure}`);
    }
  });

  await t.test('each bot has one name in the game', async () => {
    const names = await page.$$eval('.players .player .p-name', (els) => els.map((e) => e.firstChild?.textContent));
    assert.deepEqual(names, [LONG_NAME, ...BOT_DISPLAY_NAMES.slice(1, 6)]);
  });

  let turn = -1;
  for (let n = 0; ; n++) {
    if ((await waitMyTurn(page, turn, 60000)) === 'finished') break;
    turn = await turnOf(page);
    if (n === 8) {
      // A spot chosen: its whole feature painted, every tile's stretch of it drawn.
      await page.keyboard.press('n');
      await page.waitForSelector('.layer-tentative .tentative');
      await page.keyboard.press('1');
      const painted = await page
        .waitForSelector('.layer-feature .feature-hl use', { timeout: 3000 })
        .then(() =>
          // The larger side of each piece's box: a road's piece is a stroked line, whose box has no
          // width when it runs north-south (the stroke is not in the box).
          page.$$eval('.layer-feature .feature-hl use', (uses) =>
            uses.map((u: any) => {
              const box = u.getBBox();
              return `${u.getAttribute('href')} ${Math.round(Math.max(box.width, box.height))}`;
            }),
          ),
        )
        .catch(() => [] as string[]);
      await t.test('the chosen spot’s feature is painted on each of its tiles', async () =>
        assert.ok(
          painted.every((u) => !u.endsWith(' 0')),
          painted.join(', '),
        ),
      );
      await shot(page, 'v-01-mid-play-desktop');
      await page.setViewportSize(PHONE);
      await shot(page, 'v-02-mid-play-phone');
      await page.click('[data-action=sheet]');
      await t.test('on a phone the cards fit too', async () => assert.deepEqual(await cardsFit(page), []));
      await shot(page, 'v-03-mid-play-phone-sheet');
      await page.click('[data-action=sheet]');
      await page.setViewportSize(DESKTOP);
      await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
      await page.keyboard.press('Enter');
      continue;
    }
    await playTurn(page, n);
  }
  const end = page.locator('.dialog.end');
  await end.waitFor();

  await t.test('the end screen opens at its top: the title and the winner in view', async () => {
    const shown = await end.evaluate((d: any) => {
      const box = d.getBoundingClientRect();
      const inView = (el: any) => {
        const r = el.getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.bottom <= (globalThis as any).innerHeight;
      };
      return { scrollTop: d.scrollTop, title: inView(d.querySelector('#end-title')), winner: inView(d.querySelector('.scores tr.winner')) };
    });
    assert.deepEqual(shown, { scrollTop: 0, title: true, winner: true });
  });
  await shot(page, 'v-04-end-screen-desktop');

  const history = async (playerId: string) =>
    ((await (await fetch(`${e2e.base}/api/players/${encodeURIComponent(playerId)}/ratings`)).json()) as { changes: { gameId: string; before: number; after: number }[] }).changes;
  const final = await gameView(page);
  const me = final.seats[0].playerId as string;
  const myChange = (await history(me)).find((c) => c.gameId === gameId)!;
  const signed = (d: number) => (d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : '\u00b10');

  await t.test('the end screen shows each rating’s change in this game, and why it moves as it does', async () => {
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.dialog.end .scores .rating-change').length === 6, null, { timeout: 15000 });
    const mine = await end.locator('.scores tr', { hasText: '(you)' }).locator('.rating-change').textContent();
    assert.equal(mine, signed(myChange.after - myChange.before));
    for (const s of final.seats) {
      const c = (await history(s.playerId)).find((x) => x.gameId === gameId)!;
      const row = end.locator('.scores tbody tr', { hasText: s.seat === 0 ? LONG_NAME : `${BOT_DISPLAY_NAMES[s.seat]} (` });
      assert.equal(await row.locator('.rating-change').textContent(), signed(c.after - c.before), `seat ${s.seat}`);
    }
    assert.match((await end.textContent()) ?? '', /cautious.*can rise even after a 4th place of 6/);
  });

  await t.test('each bot has its one name on the end screen, with its level', async () => {
    for (let seat = 1; seat < 6; seat++) assert.equal(await end.locator('.scores tr', { hasText: `${BOT_DISPLAY_NAMES[seat]} (${LEVELS[seat - 1]} bot)` }).count(), 1, `seat ${seat}`);
  });

  await page.setViewportSize(PHONE);
  await shot(page, 'v-05-end-screen-phone');
  await page.setViewportSize(DESKTOP);
  await page.click('[data-action=close-overlay]');
  await t.test('at the end, with six ratings beside the names, the cards fit and every score shows', async () => {
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.players .player .rating').length === 6);
    assert.deepEqual(await cardsFit(page), []);
    assert.deepEqual(await axeRules(page, ['page-has-heading-one']), [], 'a finished game has a heading one');
  });
  await shot(page, 'v-06-finished-board-desktop');
  await page.setViewportSize(PHONE);
  await page.click('[data-action=sheet]');
  await t.test('at the end on a phone, the cards fit', async () => assert.deepEqual(await cardsFit(page), []));
  await shot(page, 'v-07-finished-phone-sheet');
  await page.setViewportSize(DESKTOP);

  await page.goto(`${e2e.base}/#/replay/${encodeURIComponent(gameId)}`);
  await page.waitForSelector('.replay .moves li');
  await t.test('the replay: each bot by its one name in the players and the log; every kind of figure left; a heading one', async () => {
    const names = await page.$$eval('.players .player .p-name', (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, [LONG_NAME, ...LEVELS.map((level, i) => `${BOT_DISPLAY_NAMES[i + 1]} (${level} bot)`)]);
    const log = (await page.textContent('.replay .moves')) ?? '';
    assert.doesNotMatch(log, /\b(greedy|random) bot \d/);
    assert.equal(await page.locator('.players .player .fig[data-figure=large]').count(), 6);
    assert.equal(await page.locator('.players .player .fig[data-figure=abbot]').count(), 6);
    assert.deepEqual(await axeRules(page, ['page-has-heading-one']), []);
  });

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`${e2e.base}/#/players/${encodeURIComponent(me)}`);
    await page.waitForSelector('.game-item');
    await page.waitForSelector('.chart svg path');
    await t.test(`the profile on a ${size} needs no sideways scroll`, async () =>
      assert.ok(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth)),
    );
    await page.screenshot({ path: `${SHOTS}/v-08-profile-${size}.png`, fullPage: true });
  }
  await t.test('the profile: the game’s rating change and why; bots by their one name, the score apart', async () => {
    const item = page.locator('.game-item').first();
    assert.equal(await item.locator('.rating-change').textContent(), signed(myChange.after - myChange.before));
    assert.match((await page.textContent('.rating-note')) ?? '', /cautious/);
    const pills = await item.locator('.seat-pill').allTextContents();
    for (let seat = 1; seat < 6; seat++)
      assert.ok(
        pills.some((p) => p.includes(`${BOT_DISPLAY_NAMES[seat]} (${LEVELS[seat - 1]} bot)`)),
        `seat ${seat} in ${pills}`,
      );
    assert.ok(
      pills.every((p) => !/bot \d/.test(p)),
      pills.join(' | '),
    );
  });
  await t.test('the profile’s and the leaderboard’s numbers sit under their headings', async () => {
    // Each body cell aligned as its column's heading (rows spanning columns aside).
    const misaligned = async () =>
      page.$$eval('.board-table', (tables) =>
        tables.flatMap((table: any) => {
          const heads = [...table.querySelectorAll('thead th')];
          const align = (el: any) => (globalThis as any).getComputedStyle(el).textAlign;
          return [...table.querySelectorAll('tbody tr')]
            .filter((row: any) => row.children.length === heads.length)
            .flatMap((row: any) =>
              [...row.children].flatMap((cell: any, i: number) => (align(cell) === align(heads[i]) ? [] : [`${heads[i].textContent}: ${align(heads[i])} over ${align(cell)} "${cell.textContent}"`])),
            );
        }),
      );
    assert.deepEqual(await misaligned(), []);
    await page.goto(`${e2e.base}/#/leaderboard`);
    await page.waitForSelector('tbody tr.bot');
    assert.deepEqual(await misaligned(), []);
  });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a browser that plays its seat through the signed-in player (no seat token) shows the seat, not "watching"', async () => {
  const a = await e2e.newPage(DESKTOP);
  await a.page.goto(`${e2e.base}/`);
  await a.page.fill('input[name=name]', 'Vera');
  await a.page.selectOption('select[data-opp="0"]', 'random');
  await a.page.click('button[type=submit]:has-text("Create game")');
  await a.page.waitForURL(/#\/g\//);
  const gameId = decodeURIComponent(a.page.url().split('#/g/')[1]);
  await waitMyTurn(a.page);
  assert.equal(await a.page.textContent('.conn'), 'connected · seat 1');

  // The same player's cookie, none of the seat tokens this browser keeps.
  const b = await e2e.newPage(DESKTOP);
  await b.context.addCookies(await a.context.cookies());
  await b.page.goto(`${e2e.base}/#/g/${encodeURIComponent(gameId)}`);
  assert.equal(await waitMyTurn(b.page), 'mine');
  assert.equal(await b.page.evaluate(() => localStorage.getItem('tessera.seats.v1')), null, 'no seat token here');
  await b.page.waitForFunction(() => (globalThis as any).document.querySelector('.conn')?.dataset.conn === 'open');
  assert.equal(await b.page.textContent('.conn'), 'connected · seat 1');
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context.close();
  await b.context.close();
});
