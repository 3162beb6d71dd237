// Touch targets in a real browser: on a 390×844 phone and on a desktop, every visible control a
// finger or a mouse aims at (buttons, links, inputs, selects, follower-spot and zoom buttons on
// the board) is at least 44×44 CSS px on the lobby with its create form, the rules page, the
// game screen (a base game, and one with every expansion and its figure choice) and the replay
// viewer. A checkbox or radio inside a label is aimed at through its label, so the label is
// what is measured. Links inside running text are exempt (WCAG 2.5.8's
// "inline" exception): the line of text sets their height.
//
// Needs `npm run build` (the bot worker and the client bundle).

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { CHROMIUM, needing } from './support/needs.ts';
import { Client, createGame, playUntilOver } from './server-helpers.ts';
import { type E2E, MIN_TARGET, shot, smallTargets, startE2E } from './support/e2e.ts';

const { test, before, after } = needing([CHROMIUM]);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let e2e: E2E;
let finishedId: string;

before(async () => {
  e2e = await startE2E();
  // A finished game for the replay viewer: the Node client against a random bot.
  const { id, tokens } = await createGame(e2e.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], () => 'Max');
  const me = await Client.join(e2e.ws, id, tokens.get(0));
  await playUntilOver(new Map([[0, me]]), 60000);
  me.close();
  finishedId = id;
});

after(() => e2e?.close());

for (const [size, viewport] of [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const) {
  test(`${size}: every control on the lobby, rules, game and replay screens is at least ${MIN_TARGET}×${MIN_TARGET} px`, async () => {
    const { context, page, errors } = await e2e.newPage(viewport);
    // Every screen is measured before failing, so one run names every small control.
    const small: string[] = [];
    const expectBigTargets = async (page: Page, screen: string) => small.push(...(await smallTargets(page)).map((s) => `${screen}: ${s}`));
    await page.goto(`${e2e.base}/`);
    await page.waitForSelector('.lobby');
    await expectBigTargets(page, `${size} lobby`);

    await page.goto(`${e2e.base}/#/rules`);
    await page.waitForSelector('.rules-page');
    await expectBigTargets(page, `${size} rules page`);

    // A game against a bot, with a tile placed so the follower-spot buttons are on the board.
    await page.goto(`${e2e.base}/`);
    await page.waitForSelector('.lobby');
    // Names are unique among players: each browser here is a player of its own.
    await page.fill('input[name=name]', size === 'phone' ? 'Kit' : 'Kim');
    await page.selectOption('select[data-opp="0"]', 'random');
    await page.click('button[type=submit]:has-text("Create game")');
    await page.waitForURL(/#\/g\//);
    await page.waitForSelector('.game.my-turn');
    await expectBigTargets(page, `${size} game screen`);
    await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    await expectBigTargets(page, `${size} game screen while placing`);
    await shot(page, `touch-game-${size}`);
    if (size === 'phone') {
      await page.click('[data-action=sheet]');
      await expectBigTargets(page, `${size} game screen with the sheet open`);
    }

    // A game with every expansion: the figure choice (follower, large follower, abbot) while placing.
    await page.goto(`${e2e.base}/`);
    await page.waitForSelector('.lobby');
    for (const option of ['river', 'innsCathedrals', 'abbot']) await page.check(`input[name=${option}]`);
    await page.selectOption('select[data-opp="0"]', 'random');
    await expectBigTargets(page, `${size} create form with the expansions`);
    await page.click('button[type=submit]:has-text("Create game")');
    await page.waitForURL(/#\/g\//);
    await page.waitForSelector('.game.my-turn');
    await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    await page.waitForSelector('.figures [data-figure-choice=large]');
    await expectBigTargets(page, `${size} expansion game while placing`);
    await shot(page, `touch-expansion-game-${size}`);

    await page.goto(`${e2e.base}/#/replay/${finishedId}`);
    await page.waitForSelector('.replay-controls');
    await expectBigTargets(page, `${size} replay viewer`);
    await shot(page, `touch-replay-${size}`);
    assert.deepEqual(small, [], `controls under ${MIN_TARGET}×${MIN_TARGET} px`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
