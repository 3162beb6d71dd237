// Analysis and hints in the browser, end to end: the real server (buildApp on 127.0.0.1, one bot
// worker) and Debian's Chromium. A whole game is played out from Node; its end screen's "Analyse
// the game" opens the replay, which follows the analysis to its end and draws the expert's move
// as a ghost tile at a mistake. A game created with hints from the lobby shows the expert's move
// on request and counts it, on its end screen too. Screenshots go to test-results/e2e/.
//
// Needs `npm run build` (the bot worker and the client bundle); `npm test` does that first.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Client, createGame, playUntilOver, type Running, startServer } from './server-helpers.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = fileURLToPath(new URL('../test-results/e2e/', import.meta.url));

let server: Running;
let browser: Browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `Chromium is needed at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  mkdirSync(SHOTS, { recursive: true });
  // A game whose person leaves ends (abandoned) 2 s later: the hints test reads its end screen.
  server = await startServer({ botDeadlineMs: 1500, expireAwaySeconds: 2 });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
});

after(async () => {
  await browser?.close();
  await server?.app.close();
});

async function newPage(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(20000);
  return { page, errors };
}

test('end screen → "Analyse the game" → the replay shows points lost per move and the expert’s move as a ghost', async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], () => 'Ann');
  const ann = await Client.join(server.ws, id, tokens.get(0));
  await playUntilOver(new Map([[0, ann]]), 60_000);
  ann.close();

  const { page, errors } = await newPage();
  await page.goto(`${server.base}/#/g/${id}`);
  await page.click('.dialog.end [data-action=analyse-game]');
  await page.waitForSelector('.analysis-box progress, .analysis-box .loss-strip');
  await page.screenshot({ path: join(SHOTS, '20-analysis-progress.png') });
  // One worker analyses ~70 positions of a full game: allow for a slow, shared machine.
  await page.waitForSelector('.analysis-box .loss-strip', { timeout: 150_000 });
  const stored = (await (await fetch(`${server.base}/api/games/${id}/analysis`)).json()) as any;
  assert.equal(stored.status, 'done');
  assert.equal(await page.locator('.loss-bar').count(), stored.moves.length, 'a bar per analysed move');

  const worst = [...stored.moves].sort((a: { loss: number }, b: { loss: number }) => b.loss - a.loss)[0];
  assert.ok(worst.loss > 0, 'a random bot makes mistakes');
  await page.click('.mistakes li >> nth=0');
  assert.equal(await page.getAttribute('.game.replay', 'data-step'), String(worst.moveIndex + 1), 'the biggest mistake is listed first and steps the replay there');
  const ghost = page.locator('.board-suggestion');
  await ghost.waitFor();
  assert.deepEqual(
    [await ghost.getAttribute('data-x'), await ghost.getAttribute('data-y'), await ghost.getAttribute('data-rotation')],
    [String(worst.best.x), String(worst.best.y), String(worst.best.rotation)],
  );
  assert.match((await page.textContent('.suggest-note')) ?? '', /lost/);
  await page.screenshot({ path: join(SHOTS, '21-analysis-mistake.png') });

  // A step the expert agrees with has no ghost.
  const agreed = stored.moves.find((m: { loss: number }) => m.loss === 0);
  if (agreed) {
    await page.click(`[data-action=goto][data-step="${agreed.moveIndex + 1}"] .loss-hit`);
    assert.equal(await page.getAttribute('.game.replay', 'data-step'), String(agreed.moveIndex + 1));
    assert.equal(await page.locator('.board-suggestion').count(), 0);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('hints: created from the lobby against a bot, the expert’s move drawn on request and counted', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${server.base}/`);
  await page.fill('input[name=name]', 'Hilda');
  await page.check('input[name=hints]');
  await page.click('form[data-form=create] button[type=submit]');
  await page.waitForSelector('.game.my-turn');
  await page.click('[data-action=hint]');
  const ghost = page.locator('.board-suggestion');
  await ghost.waitFor();
  const view = await page.evaluate(() => (globalThis as any).tessera.view);
  const [x, y, rotation] = await Promise.all(['data-x', 'data-y', 'data-rotation'].map((a) => ghost.getAttribute(a)));
  assert.ok(
    view.legal.some((p: { x: number; y: number; rotation: number }) => String(p.x) === x && String(p.y) === y && String(p.rotation) === rotation),
    'the hint is a legal placement',
  );
  await page.waitForFunction(() => (globalThis as any).tessera.view.seats[0].hints === 1);
  assert.match((await page.textContent('.hint-line')) ?? '', /1 hint used/);
  await page.screenshot({ path: join(SHOTS, '22-hint.png') });
  assert.deepEqual(errors, []);

  // Leave: the game expires, and its end screen counts the hint.
  const watcher = await Client.join(server.ws, view.gameId);
  await page.context().close();
  await watcher.latestState((f) => f.view.status === 'finished', 15_000);
  watcher.close();
  const again = await newPage();
  await again.page.goto(`${server.base}/#/g/${view.gameId}`);
  assert.match((await again.page.textContent('.dialog.end .hints-used')) ?? '', /Hilda used 1 hint\b/);
  await again.page.context().close();
});
