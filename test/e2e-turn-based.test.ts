// Turn-based games in a real browser (issue U): Ann challenges Ben by name into a turn-based game
// with a bot; Ben finds it in "Your games" on his next visit, takes his seat and moves; Ann and the
// bot move while he is away; when he opens the game again, on a phone, their moves since his are
// replayed on the board and listed, and "Your games" says it is his turn with the time left.
// Screenshots: test-results/e2e/u-*.png. Needs `npm run build` (the bot worker and the client).

import assert from 'node:assert/strict';
import { CHROMIUM, needing } from './support/needs.ts';
import { type E2E, axeProblems, shot, startE2E } from './support/e2e.ts';
import { Client } from './server-helpers.ts';
import { pageApi as api } from './support/page-api.ts';

const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;
before(async () => {
  e2e = await startE2E();
});
after(() => e2e?.close());

const PHONE = { width: 390, height: 844 };

/** A move by this seat's client on its turn after `after`: the first legal placement. Returns
 * the turn it moved at. (A frame of an earlier turn may still be queued: a presence change.) */
async function moveWhenDue(client: Client, seat: number, after: number): Promise<number> {
  const frame = await client.latestState((f) => f.view.turn > after && f.view.currentSeat === seat && f.view.legal?.length > 0, 15_000);
  const [p] = frame.view.legal;
  client.send({ type: 'move', turn: frame.view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
  await client.latestState((f) => f.view.turn > frame.view.turn, 15_000);
  return frame.view.turn;
}

test('a challenge found in "Your games", the others’ moves since yours replayed and listed on a phone', { timeout: 120_000 }, async () => {
  const ann = await e2e.newPage();
  const ben = await e2e.newPage(PHONE);
  await ann.page.goto(e2e.base);
  await ben.page.goto(e2e.base);
  assert.equal((await api(ann.page, 'POST', '/api/session', { name: 'Annika' })).status, 201);
  assert.equal((await api(ben.page, 'POST', '/api/session', { name: 'Benedikt' })).status, 201);
  const refused = await api(ann.page, 'POST', '/api/games', { seats: [{ kind: 'person' }, { kind: 'person', player: 'Nobody' }], pace: { kind: 'turnBased', moveDays: 2 } });
  assert.equal(refused.status, 404);
  const made = await api(ann.page, 'POST', '/api/games', {
    seats: [{ kind: 'person' }, { kind: 'person', player: 'Benedikt' }, { kind: 'bot', level: 'random' }],
    pace: { kind: 'turnBased', moveDays: 2 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  const annSeat = await api(ann.page, 'POST', `/api/games/${id}/seats`, { name: 'Annika' });
  assert.equal(annSeat.status, 201);

  // Ben's next visit: the challenge is in his games; he takes the seat kept for him.
  await ben.page.reload();
  const kept = ben.page.locator('[data-list=mine] [data-action=take-kept]');
  await kept.waitFor({ timeout: 15_000 });
  assert.match((await ben.page.textContent('[data-list=mine]')) ?? '', /challenged: a seat is kept for you/);
  await ben.page.locator('.my-games').scrollIntoViewIfNeeded();
  await shot(ben.page, 'u-challenge-your-games-phone');
  const benSeat = await api(ben.page, 'POST', `/api/games/${id}/seats`, { name: 'Benedikt' });
  assert.equal(benSeat.status, 201, JSON.stringify(benSeat.body));

  // Ann moves, Ben moves, the bot at once, Ann again: two moves since Ben's.
  const a = await Client.join(e2e.ws, id, annSeat.body.token, 1);
  const b = await Client.join(e2e.ws, id, benSeat.body.token, 1);
  const first = await moveWhenDue(a, 0, -1);
  const second = await moveWhenDue(b, 1, first);
  const third = await moveWhenDue(a, 0, second);
  await b.latestState((f) => f.view.turn > third && f.view.currentSeat === 1, 15_000);
  a.close();
  b.close();

  // Ben's games: his turn first, with the time left.
  await ben.page.reload();
  await ben.page.waitForFunction(() => /your turn/.test((globalThis as any).document.querySelector('[data-list=mine]')?.textContent ?? ''), undefined, { timeout: 15_000 });
  const mine = (await ben.page.textContent('[data-list=mine]')) ?? '';
  assert.match(mine, /turn-based · 2 days a move/);
  assert.match(mine, /your turn · 1 d 23 h left|your turn · 2 d 0 h left/);
  await ben.page.locator('.my-games').scrollIntoViewIfNeeded();
  await shot(ben.page, 'u-your-games-phone');

  // Opening the game: the moves since his, replayed on the board and listed.
  await ben.page.goto(`${e2e.base}/#/g/${id}`);
  const banner = ben.page.locator('.since-banner');
  await banner.waitFor({ state: 'visible', timeout: 15_000 });
  const text = (await banner.textContent()) ?? '';
  assert.match(text, /Since you last looked · 2 moves by the others/);
  assert.match(text, /\w+ placed .*Annika placed/, "the bot's move, then Annika's, in order");
  const items = await banner.locator('.since-moves li').count();
  assert.equal(items, 2);
  await ben.page.waitForFunction(() => (globalThis as any).document.querySelector('.since-banner')?.dataset.step === '1', undefined, { timeout: 10_000 });
  await shot(ben.page, 'u-since-replaying-phone');
  await ben.page.waitForFunction(() => (globalThis as any).document.querySelector('.since-banner')?.dataset.step === '3', undefined, { timeout: 15_000 });
  await shot(ben.page, 'u-since-listed-phone');
  assert.deepEqual(await axeProblems(ben.page), []);
  assert.match((await ben.page.textContent('.turn-box')) ?? '', /turn-based · 2 days a move · \d d \d+ h left/);
  await ben.page.click('[data-action=close-since]');
  assert.equal(await banner.isVisible(), false);
  assert.deepEqual([...ann.errors, ...ben.errors], []);
});
