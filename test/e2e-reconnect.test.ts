// The browser client through a takeover, in Chromium: its game is owned by another instance (two
// instances on a private PostgreSQL, no Redis), so the instance it reaches answers its hello with
// `game_elsewhere`; the screen says "reconnecting" with the cause (no error toast) and keeps
// trying, and when the owner shuts down the client is welcomed and plays on. Screenshots in
// test-results/e2e/.

import assert from 'node:assert/strict';
import { type PrivatePostgres, startPostgres } from '../support/postgres.ts';
import { createGame, type Running, startServer } from './server-helpers.ts';
import { type E2E, shot, startE2E, waitMyTurn } from './support/e2e.ts';
import { CHROMIUM, needing, POSTGRES } from './support/needs.ts';

// Without Chromium or PostgreSQL, skipped with one line; under CI=true it fails.
const { test, before, after } = needing([CHROMIUM, POSTGRES]);

let postgres: PrivatePostgres;
let owner: Running;
let e2e: E2E;

before(async () => {
  postgres = await startPostgres();
  const databaseUrl = await postgres.database('reconnect');
  // Long leases: only the owner's clean shutdown hands the game over.
  owner = await startServer({ databaseUrl, instanceId: 'owner', leaseSeconds: 30 });
  e2e = await startE2E({ config: { databaseUrl, instanceId: 'edge', leaseSeconds: 30 } });
});
after(async () => {
  await e2e?.close();
  await owner?.app.close();
  await postgres?.stop();
});

test('a hello answered game_elsewhere: the screen shows "reconnecting" with its cause, retries, and plays once the game is served', { timeout: 120_000 }, async () => {
  const { id, tokens } = await createGame(owner.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const { context, page, errors } = await e2e.newPage();
  await page.goto(`${e2e.base}/`);
  await page.evaluate(
    ([gameId, token]) => (globalThis as any).localStorage.setItem('tessera.seats.v1', JSON.stringify({ [gameId]: { gameId, seat: 0, token, name: 'Ann', at: Date.now() } })),
    [id, tokens.get(0)!],
  );
  await page.goto(`${e2e.base}/#/g/${encodeURIComponent(id)}`);
  const conn = page.locator('.conn');
  await page.waitForSelector('.conn[data-conn="reconnecting"]');
  assert.match(await conn.innerText(), /reconnecting….*moving to another server/);
  // It keeps trying: a few refused hellos later it still says so, with no error toast.
  await page.waitForTimeout(1500);
  assert.equal(await conn.getAttribute('data-conn'), 'reconnecting');
  // Each attempt keeps the cause on screen (a new attempt showed a bare "reconnecting…"): every
  // text the badge shows over the next attempts.
  const shown: string[] = await page.evaluate(async () => {
    const el = (globalThis as any).document.querySelector('.conn');
    const seen: string[] = [el.innerText];
    const watch = new (globalThis as any).MutationObserver(() => seen.push(el.innerText));
    watch.observe(el, { childList: true, characterData: true, subtree: true, attributes: true });
    await new Promise((r) => setTimeout(r, 4000));
    watch.disconnect();
    return seen;
  });
  assert.ok(shown.length > 1, `attempts seen (${shown.length})`);
  assert.deepEqual(
    shown.filter((t) => !/moving to another server/.test(t)),
    [],
    'the cause stays while retrying',
  );
  assert.equal(await page.locator('#toast.show.error').count(), 0, 'no error toast for a retried hello');
  await shot(page, '20-reconnecting-game-elsewhere');

  // The owner shuts down cleanly (its leases end): the next retry is welcomed here.
  await owner.app.close();
  await page.waitForSelector('.conn[data-conn="open"]', { timeout: 30_000 });
  assert.match(await conn.innerText(), /connected · seat 1/);
  assert.equal(await waitMyTurn(page), 'mine');
  await shot(page, '21-reconnected-after-takeover');
  assert.deepEqual(errors, []);
  await context.close();
});
