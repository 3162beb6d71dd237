// Words the client shows for issue 44 (V), without a browser: a bot's recorded name ("greedy bot
// 3", as records and profiles keep it) read back as the name it had in the game, the abbot's spot
// named for the abbot, and a rating's change with its sign.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ratingChangeText } from '../client/src/players/player-text.ts';
import { recordedName, spotLabel } from '../client/src/text.ts';
import { BOT_DISPLAY_NAMES } from '../server/wire/limits.ts';

test('a recorded bot seat reads as the name the bot had in the game, with its level; people keep theirs', () => {
  assert.equal(recordedName('greedy bot 3', 2), `${BOT_DISPLAY_NAMES[2]} (greedy bot)`);
  assert.equal(recordedName('expert bot 6', 5, { kind: 'bot', level: 'expert' }), `${BOT_DISPLAY_NAMES[5]} (expert bot)`);
  // A profile's player says it is a bot: its level from there.
  assert.equal(recordedName('random bot 2', 1, { kind: 'bot', level: 'random' }), `${BOT_DISPLAY_NAMES[1]} (random bot)`);
  // A person's name that only looks like one (another seat's number, or no bot level) stays.
  assert.equal(recordedName('greedy bot 4', 0, { kind: 'person' }), 'greedy bot 4');
  assert.equal(recordedName('robo bot 1', 0), 'robo bot 1');
  assert.equal(recordedName('Ada', 0), 'Ada');
});

test('with the abbot chosen, its spot is named for the abbot', () => {
  assert.equal(spotLabel('monastery', true, { tile: 'B', rotation: 0, figure: 'abbot' }), 'Abbot in the monastery');
  assert.equal(spotLabel('garden', true, { tile: 'Eg', rotation: 0, figure: 'abbot' }), 'Abbot in the garden');
  assert.equal(spotLabel('monastery', true, { tile: 'B', rotation: 0 }), 'Monk in the monastery');
});

test('a rating change reads with its sign: +12, −8 (a true minus), ±0', () => {
  assert.equal(ratingChangeText(1000, 1012), '+12');
  assert.equal(ratingChangeText(1000, 992), '\u22128');
  assert.equal(ratingChangeText(1000.4, 999.6), '\u00b10');
});

test('zoomed out, no figure is drawn taller than about half a tile; the large follower stays the bigger', async () => {
  const { figureScale, FIGURE_MAX_HEIGHT, LARGE_SCALE, meepleMarkup } = await import('../client/src/art.ts');
  // The board asks for scales from 0.85 (zoomed in) to 1.9 (zoomed out: a 25 px cell on a phone).
  for (const asked of [0.85, 1, 1.5, 1.9]) {
    for (const figure of ['follower', 'large', 'abbot'] as const) {
      const drawn = Number(/scale\(([\d.]+)\)/.exec(meepleMarkup(0, 50, 50, { scale: asked, figure }))![1]);
      assert.ok(drawn * (figure === 'abbot' ? 26.3 : 25.5) <= FIGURE_MAX_HEIGHT + 0.01, `${figure} at ${asked}: ${drawn}`);
      assert.equal(drawn, figureScale(asked, figure));
    }
    assert.ok(figureScale(asked, 'large') > figureScale(asked, 'follower'), `large bigger at ${asked}`);
  }
  // Zoomed in, as before: the large follower LARGE_SCALE times the follower.
  assert.equal(figureScale(1, 'large'), LARGE_SCALE);
});
