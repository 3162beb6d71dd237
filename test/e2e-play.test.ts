// Playing well in the browser: readable words instead of tile letters
// and coordinates, friendly bot names; the tiles-left panel; the bot's tile highlighted until the
// player acts; scorings outlined on the board with their points; the follower's whole feature
// painted before confirming, with tappable spots; a log that shows its entries on the board;
// the board re-fitting as it grows unless zoomed by hand; the stand-in's "Take my seat back" and
// toasts that end with their turn; a phone upright and sideways. Real server, Debian Chromium
// (reduced motion: the state is checked by classes and attributes), screenshots looked at in
// test-results/e2e/. Needs `npm run build`.

import assert from 'node:assert/strict';
import { CHROMIUM, needing } from './support/needs.ts';
import type { Page } from 'playwright-core';
import { boardZoom, cellCenter, cellOnScreen, clickCell, type E2E, gameView, type Placement, selection, shot, spotOnScreen, startE2E, waitMyTurn } from './support/e2e.ts';

// Without Chromium, skipped with one line each; under CI=true they fail.
const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;

before(async () => {
  e2e = await startE2E();
});

after(async () => {
  await e2e?.close();
});

async function createGame(page: Page, name: string, levels: string[]): Promise<void> {
  await page.goto(`${e2e.base}/`);
  await page.waitForSelector('.lobby');
  await page.fill('input[name=name]', name);
  for (let i = 0; i < levels.length; i++) {
    if (i > 0) await page.click('[data-action=add]');
    await page.selectOption(`select[data-opp="${i}"]`, levels[i]);
  }
  await page.click('button[type=submit]:has-text("Create game")');
  await page.waitForURL(/#\/g\//);
}

const bagCounts = (page: Page) =>
  page.$$eval('.bag-tile', (els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-tile'), Number(e.getAttribute('data-left'))]))) as Promise<Record<string, number>>;

/** What the player reads (the log's detail, where coordinates belong, left out). */
const readable = (page: Page) =>
  page.evaluate(() => {
    const d = (globalThis as any).document;
    const copy = d.querySelector('.game').cloneNode(true);
    for (const m of copy.querySelectorAll('.log .muted')) m.remove();
    return copy.textContent as string;
  });

test('desktop: words not letters, tiles left, the follower feature, what the bot did, scorings, the log', async () => {
  const { context, page, errors } = await e2e.newPage();
  await createGame(page, 'Ada', ['greedy']);
  assert.equal(await waitMyTurn(page), 'mine');
  // Every scoring outline the board draws is recorded (they fade after a few seconds).
  await page.evaluate(() => {
    const g = globalThis as any;
    g.scoredSeen = [];
    new g.MutationObserver((ms: any[]) => {
      for (const m of ms)
        for (const n of m.addedNodes) if (n.classList?.contains('scored')) g.scoredSeen.push({ kind: n.dataset.kind, points: Number(n.dataset.points), parts: n.querySelectorAll('use').length });
    }).observe(g.document.querySelector('.layer-fx'), { childList: true });
  });

  // 1. Readable text: the tile in words, the bot by a name and its level, no letters or (x, y).
  let v = await gameView(page);
  const tileName = (await page.textContent('.tile-name'))!.trim();
  assert.doesNotMatch(tileName, /^Tile [A-X]\b|°/);
  assert.ok(tileName.length > 6, `the tile is described in words: ${tileName}`);
  assert.match((await page.textContent('.players-box'))!, /Bertha[\s\S]*bot · greedy/);

  // 2. Tiles left: all 24 types with their art; the counts add up to the bag; the start tile
  // and the tile in hand are out of it.
  assert.equal(await page.locator('.bag-tile').count(), 24);
  assert.equal(await page.locator('.bag-tile svg use').count(), 24);
  let bag = await bagCounts(page);
  const sum = (b: Record<string, number>) => Object.values(b).reduce((a, n) => a + n, 0);
  // view.tilesLeft counts the tile in hand too; the bag does not.
  const inBag = (view: { tilesLeft: number; tile: string | null }) => view.tilesLeft - (view.tile ? 1 : 0);
  assert.equal(sum(bag), inBag(v), 'the panel counts what is in the bag');
  assert.equal(Number(await page.getAttribute('.bag-total', 'data-total')), inBag(v));
  assert.equal(bag.D, v.tile === 'D' ? 2 : 3, 'the start tile (and the tile in hand) are not in the bag');

  // 4. Follower placement: picking a spot paints the whole feature it belongs to, across tiles;
  // a field (the farmer's) when one is offered. The tile is zoomed to tappable size first.
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  const zoomedOut = await boardZoom(page);
  const legal: Placement[] = v.legal;
  const p = legal.find((l) => l.meeples.some((m) => m.startsWith('field'))) ?? legal.find((l) => l.meeples.length) ?? legal[0];
  await clickCell(page, p.x, p.y);
  for (let i = 0; i < 4 && (await selection(page))?.rotation !== p.rotation; i++) await page.keyboard.press('r');
  const zoomed = await boardZoom(page);
  assert.ok(zoomed >= 1.6 && zoomed > zoomedOut, `zoomed in to place a follower (${zoomedOut} → ${zoomed})`);
  // Every offered spot owns at least a 42 px disc, or half the way to a closer neighbour: a tap
  // anywhere on its rim puts the follower there (and the next one takes it off again).
  const centres = await Promise.all(p.meeples.map((n) => spotOnScreen(page, n)));
  for (const [i, n] of p.meeples.entries()) {
    const c = centres[i];
    const reach = Math.min(21, ...centres.filter((_, j) => j !== i).map((o) => Math.hypot(o.x - c.x, o.y - c.y) / 2 - 1));
    for (let k = 0; k < 8; k++) {
      const before = (await selection(page))?.meeple;
      await page.mouse.click(c.x + Math.cos((k * Math.PI) / 4) * reach, c.y + Math.sin((k * Math.PI) / 4) * reach);
      assert.equal((await selection(page))?.meeple, before === n ? null : n, `spot ${n} answers a tap ${reach.toFixed(1)} px away`);
    }
  }
  const farmer = p.meeples.find((m) => m.startsWith('field')) ?? p.meeples[0];
  // Pointing at a spot shows its feature before anything is chosen.
  for (const spot of p.meeples) {
    const at = await spotOnScreen(page, spot);
    await page.mouse.move(at.x, at.y);
    await page.waitForSelector(`.layer-feature .feature-hl[data-kind="${spot.split(':')[0]}"]`, { state: 'attached' });
    assert.equal((await selection(page))?.meeple, null, 'pointing chooses nothing');
  }
  if (farmer) {
    const c = await spotOnScreen(page, farmer);
    await page.mouse.click(c.x, c.y);
    assert.equal((await selection(page))?.meeple, farmer);
    const hl = page.locator('.layer-feature .feature-hl');
    await hl.waitFor({ state: 'attached' });
    assert.equal(await hl.getAttribute('data-kind'), farmer.split(':')[0] === 'field' ? 'field' : farmer.split(':')[0]);
    assert.ok(Number(await hl.getAttribute('data-parts')) >= 1);
    assert.ok((await hl.locator('use').count()) >= 1);
    await shot(page, 'k01-follower-feature');
  }
  await page.click('[data-action=confirm]');
  await page.waitForSelector('.layer-feature .feature-hl', { state: 'detached' });

  // 3. The bot's answer: its tile is marked fresh until I act; the log says it in words.
  assert.equal(await waitMyTurn(page, v.turn), 'mine');
  v = await gameView(page);
  const botTile = await page.evaluate(() => {
    const t = (globalThis as any).document.querySelector('.layer-tiles .tile.fresh');
    return t && { x: Number(t.dataset.x), y: Number(t.dataset.y) };
  });
  assert.ok(botTile, "the bot's tile is highlighted");
  const logText = (await page.textContent('.log'))!;
  assert.match(logText, /Bertha placed an? [a-z]/);
  assert.match(logText, /tile [A-X] at \(-?\d+, -?\d+\)/, 'coordinates stay in the detail');
  assert.doesNotMatch(await readable(page), /\bTile [A-X]\b|placed [A-X] at|\(-?\d+, -?\d+\)/);
  await shot(page, 'k02-bot-tile-fresh');
  // Still fresh after a while, until this player's next action.
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('.layer-tiles .tile.fresh').count(), 1);
  await clickCell(page, v.legal[0].x, v.legal[0].y);
  assert.equal(await page.locator('.layer-tiles .tile.fresh').count(), 0, 'acting clears the highlight');
  await page.keyboard.press('Escape');

  // The board re-fits as it grows: every tile stays in view without touching the zoom.
  const inView = () =>
    page.evaluate(() => {
      const d = (globalThis as any).document;
      const r = d.querySelector('.board').getBoundingClientRect();
      return [...d.querySelectorAll('.layer-tiles .tile')].every((t: any) => {
        const b = t.getBoundingClientRect();
        return b.left >= r.left - 1 && b.right <= r.right + 1 && b.top >= r.top - 1 && b.bottom <= r.bottom + 1;
      });
    });

  // Play on until a scoring has been seen on the board and in the log. (The zoom by hand
  // above stopped the re-fitting; the fit button brings it back.)
  await page.click('[data-action=fit]');
  for (let i = 0; i < 25; i++) {
    const seen = await page.evaluate(() => (globalThis as any).scoredSeen.length);
    if (seen > 0 && (await page.locator('.log li.log-score.pickable').count()) > 0) break;
    v = await gameView(page);
    // By keyboard: a click near the edge would drag the board (a pan by hand stops re-fitting).
    for (let n = 0; n <= i % 3; n++) await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    await page.click('[data-action=confirm]');
    if ((await waitMyTurn(page, v.turn)) === 'finished') break;
    assert.ok(await inView(), `after turn ${v.turn} the whole board is in view`);
  }
  const scored = await page.evaluate(() => (globalThis as any).scoredSeen);
  assert.ok(scored.length > 0, 'a scoring was outlined on the board');
  for (const s of scored) assert.ok(s.points > 0 && s.parts > 0 && ['city', 'road', 'monastery'].includes(s.kind), JSON.stringify(s));

  // 2. The counts follow the game: still the bag's size, turn after turn.
  v = await gameView(page);
  bag = await bagCounts(page);
  assert.equal(sum(bag), inBag(v));

  // 5. The log reads back: a placement flashes its tile, a scoring outlines its feature.
  await page.click('.log li.log-move.pickable >> nth=0');
  await page.waitForSelector('.layer-fx .tile-flash');
  await page.click('.log li.log-score.pickable >> nth=0');
  const outline = page.locator('.layer-fx .log-outline').last();
  await outline.waitFor({ state: 'attached' });
  assert.ok(Number(await outline.getAttribute('data-tiles')) >= 1);
  await shot(page, 'k03-log-scoring-outlined');

  // Zoomed by hand, the board keeps the player's view as it grows.
  await page.click('[data-action=zoom-in]');
  const z = await boardZoom(page);
  v = await gameView(page);
  if (v.status === 'playing') {
    // By keyboard (N): clicking a cell would zoom in to offer follower spots.
    await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    await page.click('[data-action=confirm]');
    await waitMyTurn(page, v.turn);
    assert.equal(await boardZoom(page), z, 'no re-fit after a manual zoom');
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone upright and sideways: the lobby fits, the turn is played from a bottom bar, tiles left in a sheet', async () => {
  for (const [width, height, tag] of [
    [390, 844, 'upright'],
    [844, 390, 'sideways'],
  ] as const) {
    const { context, page, errors } = await e2e.newPage({ width, height });
    await page.goto(`${e2e.base}/`);
    await page.waitForSelector('.lobby');
    const overflow = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth);
    assert.ok((await overflow()) <= 0, `the lobby has no horizontal overflow (${tag})`);
    await shot(page, `k04-lobby-${tag}`);
    // Names are unique among players: each browser here is a player of its own.
    await createGame(page, tag === 'upright' ? 'Bea' : 'Bo', ['random']);
    assert.equal(await waitMyTurn(page), 'mine');
    const onScreen = async (sel: string) => {
      const b = await page.locator(sel).first().boundingBox();
      return !!b && b.y >= 0 && b.y + b.height <= height + 0.5 && b.x >= 0 && b.x + b.width <= width + 0.5;
    };
    const noScroll = () => page.evaluate(() => (globalThis as any).document.scrollingElement.scrollHeight <= (globalThis as any).innerHeight);
    for (let turn = 0; turn < 2; turn++) {
      const v = await gameView(page);
      assert.ok(await onScreen('.current-tile'), `the tile is on screen (${tag})`);
      assert.ok(await onScreen('[data-action=rot-cw]'), `rotate is on screen (${tag})`);
      const board = (await page.locator('.board').boundingBox())!;
      assert.ok(board.width * board.height >= 0.4 * width * height, `the board has most of the screen (${tag})`);
      if (turn === 0) {
        // A tap where the tile cannot go (a corner of the start tile touches no edge): the toast
        // says so without covering the turn's controls, and goes once a square is chosen.
        const miss = await cellOnScreen(page, 1, 1);
        await page.mouse.click(miss.x, miss.y);
        await page.waitForSelector('#toast.show');
        const t = (await page.locator('#toast').boundingBox())!;
        for (const sel of ['.current-tile', '[data-action=rot-cw]', '[data-action=rot-ccw]']) {
          const b = (await page.locator(sel).boundingBox())!;
          const apart = t.x + t.width <= b.x || b.x + b.width <= t.x || t.y + t.height <= b.y || b.y + b.height <= t.y;
          assert.ok(apart, `the toast leaves ${sel} free (${tag})`);
        }
      }
      const p: Placement = v.legal.find((l: Placement) => l.meeples.length) ?? v.legal[0];
      await clickCell(page, p.x, p.y);
      assert.equal(await page.locator('#toast.show').count(), 0, `the toast went with the square chosen (${tag})`);
      // A spot offered at the rotation the client chose there (the first that fits); the spots
      // are drawn with the tentative tile.
      const offered = page.locator('.layer-spots .spot');
      if (await offered.count()) {
        const c = await spotOnScreen(page, (await offered.first().getAttribute('data-spot'))!);
        await page.mouse.click(c.x, c.y);
        await page.waitForSelector('.layer-feature .feature-hl', { state: 'attached' });
      }
      if (turn === 0) await shot(page, `k05-phone-turn-${tag}`);
      assert.ok(await onScreen('[data-action=confirm]'), `Confirm is on screen (${tag})`);
      assert.ok(await onScreen('[data-action=takeback]'), `Take back is on screen (${tag})`);
      assert.ok(await noScroll(), `nothing to scroll (${tag})`);
      assert.ok((await overflow()) <= 0, `no horizontal overflow in play (${tag})`);
      await page.click('[data-action=confirm]');
      assert.equal(await waitMyTurn(page, v.turn), 'mine');
    }
    // Tiles left (and players, table talk, log) on a phone: the sheet upright, the panel sideways.
    if (tag === 'upright') {
      assert.equal(await page.locator('.bag-grid').isVisible(), false);
      await page.click('[data-action=sheet]');
      assert.ok(await page.locator('.chat-box').isVisible(), 'the table talk is in the sheet');
      assert.ok(await onScreen('[data-action=rot-cw]'), 'the turn stays playable with the sheet open');
    } else await page.locator('.bag-box').scrollIntoViewIfNeeded();
    await page.waitForSelector('.bag-grid', { state: 'visible' });
    assert.ok(await onScreen('.bag-tile'), `tiles left reachable (${tag})`);
    await shot(page, `k06-phone-tiles-left-${tag}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a bot stands in when the clock runs out: "Take my seat back"; toasts end with their turn', async () => {
  const { context, page, errors } = await e2e.newPage();
  await page.goto(`${e2e.base}/`);
  // A game with a 2-second turn clock, made over the API; the seat's token goes where the
  // client keeps it, as if this browser had created the game.
  const gameId = await page.evaluate(async () => {
    const g = globalThis as any;
    const post = async (url: string, body: unknown) => (await g.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    // Expert bots (the stand-in too) think up to the deadline, so the game lasts while we look.
    const game = await post('/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'expert' }], clock: { turnSeconds: 2 }, standIn: 'expert' });
    const seat = await post(`/api/games/${game.gameId ?? game.id}/seats`, { name: 'Cy' });
    const id = game.gameId ?? game.id;
    g.localStorage.setItem('tessera.seats.v1', JSON.stringify({ [id]: { gameId: id, seat: seat.seat, token: seat.token, name: 'Cy', at: Date.now() } }));
    return id as string;
  });
  await page.goto(`${e2e.base}/#/g/${encodeURIComponent(gameId)}`);
  assert.equal(await waitMyTurn(page), 'mine');
  // A toast raised on this turn (a tile clicked where it cannot go)…
  const v = await gameView(page);
  const far = { x: Math.max(...v.board.map((t: { x: number }) => t.x)) + 2, y: 0 };
  const c = await cellCenter(page, far.x, far.y);
  await page.mouse.click(c.x, c.y);
  await page.waitForSelector('#toast.show');
  assert.match((await page.textContent('#toast'))!, /cannot go there/);
  // …the clock runs out, a bot plays the seat: the button to take it back.
  await page.waitForSelector('[data-action=claim]', { timeout: 30000 });
  await page.waitForFunction((t) => Number((globalThis as any).document.querySelector('.game').dataset.turn) > t, v.turn, { timeout: 30000 });
  assert.equal(await page.locator('#toast.show').count(), 0, "the old turn's toast is gone");
  assert.match((await page.textContent('.stand-in'))!, /time ran out/);
  await shot(page, 'k07-take-seat-back');
  // A press that spans a redraw still counts: the button is held down while a state frame (the
  // next move) redraws the turn panel, the pointer follows it if the panel moved it, then lets
  // go. (A panel rebuilt from scratch lost such a press: it began on a button no longer in the
  // page, so the click went to the panel.)
  const centre = async () => {
    const b = (await page.locator('[data-action=claim]').boundingBox())!;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  let at = await centre();
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  const held = Number(await page.getAttribute('.game', 'data-turn'));
  await page.waitForFunction((t) => Number((globalThis as any).document.querySelector('.game').dataset.turn) > t, held, { timeout: 30000 });
  at = await centre();
  await page.mouse.move(at.x, at.y);
  await page.mouse.up();
  // (With a 2-second clock the bot may stand in again soon: the frame after the claim matters.)
  await page.waitForSelector('[data-action=claim]', { state: 'detached', timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the score track follows the scores; at the end the final scorings play on the board one by one', async () => {
  const { context, page, errors } = await e2e.newPage();
  await createGame(page, 'Dee', ['random']);
  await page.evaluate(() => {
    const g = globalThis as any;
    g.finalSteps = [];
    g.finalOutlines = [];
    new g.MutationObserver(() => {
      const b = g.document.querySelector('.final-banner');
      if (!b.hidden) g.finalSteps.push(`${b.dataset.step}/${b.dataset.steps}`);
    }).observe(g.document.querySelector('.final-banner'), { attributes: true, childList: true });
    new g.MutationObserver((ms: any[]) => {
      for (const m of ms) for (const n of m.addedNodes) if (n.classList?.contains('final-scored')) g.finalOutlines.push(n.dataset.kind);
    }).observe(g.document.querySelector('.layer-fx'), { childList: true });
  });
  let turn = -1;
  let moves = 0;
  for (;;) {
    if ((await waitMyTurn(page, turn)) === 'finished') break;
    turn = Number(await page.getAttribute('.game', 'data-turn'));
    await page.keyboard.press('n');
    await page.waitForSelector('.layer-tentative .tentative');
    // Followers often, so the end has unfinished features and farms to score.
    if (moves % 2 === 0) await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    moves++;
    if (moves === 12) await shot(page, 'k08-score-track');
  }
  await page.waitForSelector('.dialog.end', { timeout: 30000 });
  const v = await gameView(page);
  // The track: each seat's marker on its score's square, a lap badge past 49.
  const markers = await page.$$eval('.score-track .track-marker', (els) =>
    els.map((e) => ({
      seat: Number(e.getAttribute('data-seat')),
      score: Number(e.getAttribute('data-score')),
      square: Number(e.getAttribute('data-square')),
      lap: e.querySelector('.lap')?.textContent ?? null,
    })),
  );
  assert.equal(markers.length, 2);
  for (const m of markers) {
    assert.equal(m.score, v.seats[m.seat].score);
    assert.equal(m.square, m.score % 50);
    assert.equal(m.lap, m.score >= 50 ? `+${Math.floor(m.score / 50) * 50}` : null);
  }
  // The final scorings came one by one, each outlined on the board, before the end screen.
  const finals = (await page.locator('.log li.log-final').count()) - 1;
  const steps: string[] = await page.evaluate(() => (globalThis as any).finalSteps);
  const distinct = [...new Set(steps)];
  assert.ok(finals > 0, 'the game had final scorings');
  assert.deepEqual(
    distinct,
    Array.from({ length: finals }, (_, i) => `${i + 1}/${finals}`),
  );
  const outlines: string[] = await page.evaluate(() => (globalThis as any).finalOutlines);
  assert.equal(outlines.length, finals, `every final scoring outlined (${outlines.join(', ')})`);
  await page.click('[data-action=close-overlay]');
  await shot(page, 'k09-end-board-track');
  assert.deepEqual(errors, []);
  await context.close();
});
