// Analysis and hints in the browser, end to end: the real server (buildApp on 127.0.0.1, one bot
// worker) and Debian's Chromium. A short game is played from Node and left to expire; its end screen's "Analyse
// the game" opens the replay, which follows the analysis to its end and draws the expert's move
// as a ghost tile at a mistake. A game created with hints from the lobby shows the expert's move
// on request and counts it, on its end screen too. Screenshots go to test-results/e2e/.
//
// Needs `npm run build` (the bot worker and the client bundle); `npm test` does that first.

import assert from 'node:assert/strict';
import { CHROMIUM, needing } from './support/needs.ts';
import { Client, createGame, playTurns } from './server-helpers.ts';
import { type E2E, gameView, shot, startE2E } from './support/e2e.ts';

// Without Chromium, skipped with one line each; under CI=true they fail.
const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;

before(async () => {
  // A game whose person leaves ends (abandoned) 2 s later: the hints test reads its end screen.
  e2e = await startE2E({ config: { expireAwaySeconds: 2 } });
});

after(() => e2e?.close());

const newPage = () => e2e.newPage();

/** A game of PLAYED_TURNS moves against a random bot, then left: it ends abandoned 2 s later. Short,
 * so that its analysis (one expert search and 32 playouts a move on one worker) stays a few
 * seconds, and well under the waits below under coverage on a shared machine (which makes each
 * search ≈ 6× slower: 24 moves took up to 160 s there); an abandoned game is analysed like any other. */
const PLAYED_TURNS = 12;
async function playedAndAbandoned(name: string): Promise<string> {
  const { id, tokens } = await createGame(e2e.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], () => name);
  const player = await Client.join(e2e.ws, id, tokens.get(0));
  await playTurns(new Map([[0, player]]), PLAYED_TURNS, 60_000);
  player.close();
  const watcher = await Client.join(e2e.ws, id);
  await watcher.latestState((f) => f.view.status === 'finished', 15_000);
  watcher.close();
  return id;
}

test('end screen → "Analyse the game" → the replay shows points lost per move and the expert’s move as a ghost', async () => {
  const id = await playedAndAbandoned('Ann');

  const { page, errors } = await newPage();
  await page.goto(`${e2e.base}/#/g/${id}`);
  await page.click('.dialog.end [data-action=analyse-game]');
  await page.waitForSelector('.analysis-box progress, .analysis-box .loss-strip');
  await shot(page, '20-analysis-progress');
  // Allow for a slow, shared machine under coverage.
  await page.waitForSelector('.analysis-box .loss-strip', { timeout: 150_000 });
  const stored = (await (await fetch(`${e2e.base}/api/games/${id}/analysis`)).json()) as any;
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
  await shot(page, '21-analysis-mistake');

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

test('an analysis lost to a server restart is asked for again by the replay, and finishes', async () => {
  const id = await playedAndAbandoned('Rita');

  const { page, errors } = await newPage();
  await page.goto(`${e2e.base}/#/g/${id}`);
  await page.click('.dialog.end [data-action=analyse-game]');
  await page.waitForSelector('.analysis-box progress');
  const before = (await (await fetch(`${e2e.base}/api/games/${id}/analysis`)).json()) as { status: string };
  assert.ok(before.status === 'queued' || before.status === 'running', `still under way at the restart (${before.status})`);
  // Waiting analyses live in memory: the new server has never heard of this one until asked again.
  await e2e.restart();
  await page.waitForSelector('.analysis-box .loss-strip', { timeout: 150_000 });
  const stored = (await (await fetch(`${e2e.base}/api/games/${id}/analysis`)).json()) as { status: string };
  assert.equal(stored.status, 'done');
  // The stream's reconnects while the server was away are the browser's, not the page's errors.
  assert.deepEqual(
    errors.filter((e) => !/EventSource|ERR_CONNECTION_REFUSED|503|404/.test(e)),
    [],
  );
  await page.context().close();
});

test('hints: created from the lobby against a bot, the expert’s move drawn on request and counted', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${e2e.base}/`);
  await page.fill('input[name=name]', 'Hilda');
  await page.check('input[name=hints]');
  await page.click('form[data-form=create] button[type=submit]');
  await page.waitForSelector('.game.my-turn');
  await page.click('[data-action=hint]');
  const ghost = page.locator('.board-suggestion');
  await ghost.waitFor();
  const view = await gameView(page);
  const [x, y, rotation] = await Promise.all(['data-x', 'data-y', 'data-rotation'].map((a) => ghost.getAttribute(a)));
  assert.ok(
    view.legal.some((p: { x: number; y: number; rotation: number }) => String(p.x) === x && String(p.y) === y && String(p.rotation) === rotation),
    'the hint is a legal placement',
  );
  await page.waitForFunction(() => /\b1 hint used/.test((globalThis as any).document.querySelector('.hint-line')?.textContent ?? ''));
  await shot(page, '22-hint');
  assert.deepEqual(errors, []);

  // Leave: the game expires, and its end screen counts the hint.
  const watcher = await Client.join(e2e.ws, view.gameId);
  await page.context().close();
  await watcher.latestState((f) => f.view.status === 'finished', 15_000);
  watcher.close();
  const again = await newPage();
  await again.page.goto(`${e2e.base}/#/g/${view.gameId}`);
  assert.match((await again.page.textContent('.dialog.end .hints-used')) ?? '', /Hilda used 1 hint\b/);
  await again.page.context().close();
});
