// The browser client's player pages without a browser: ratings and results in words, names that
// link to profiles, the rating chart's data and axis, and "your games" merged from the player's
// list and this browser's seat tokens.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlayerGame } from '../client/src/players/player-api.ts';
import type { HeldSeat } from '../client/src/api.ts';
import { lineChart, rangeTicks } from '../client/src/charts.ts';
import { mergeMyGames } from '../client/src/players/my-games.ts';
import {
  MISTAKE_WORDS,
  guestMark,
  lostPerMoveText,
  meanPlaceText,
  mistakeWords,
  optionLabel,
  ordinal,
  playerName,
  profileHref,
  ratingBadge,
  ratingChartData,
  ratingText,
  shortDate,
  winsText,
} from '../client/src/players/player-text.ts';

test('a rating is shown whole beside a name, marked when provisional, absent when the view has none', () => {
  assert.equal(ratingText(1234.5), '1235');
  assert.equal(ratingText(-3.4), '-3');
  assert.equal(ratingBadge(null), '');
  assert.equal(ratingBadge(Number.NaN), '');
  const badge = ratingBadge(1500.2);
  assert.match(badge, /<span class="rating" title="Rating"><span class="sr-only">rating <\/span>1500<\/span>/);
  assert.match(ratingBadge(1500, true), /1500\?<\/span>$/);
  assert.match(ratingBadge(1500, true), /provisional/);
});

test('a seat held under a typed name is marked guest; a signed-in or bot seat is not', () => {
  assert.match(guestMark({ guest: true }), /<span class="guest" title="Not signed in[^"]*">guest<\/span>$/);
  assert.equal(guestMark({}), '');
});

test('names link to the player page, escaped; a seat without a player is plain text', () => {
  assert.equal(profileHref('bot:expert'), '#/players/bot%3Aexpert');
  assert.equal(playerName('<Ada>', 'p_abc'), '<a class="player-link" href="#/players/p_abc">&lt;Ada&gt;</a>');
  assert.equal(playerName('Bo & Co', null), 'Bo &amp; Co');
});

test('places, wins and points lost read as words', () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 112].map(ordinal), ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '112th']);
  assert.equal(meanPlaceText(1.75), '1.8');
  assert.equal(meanPlaceText(null), '–');
  assert.equal(winsText(3, 7), '3 (43 %)');
  assert.equal(winsText(0, 0), '–');
  assert.equal(lostPerMoveText(1.234, 212), '1.23 points per move (over 212 analysed moves)');
  assert.equal(lostPerMoveText(12.34, 1), '12.3 points per move (over 1 analysed move)');
  assert.match(lostPerMoveText(null, 0), /^No analysed game yet/);
  assert.equal(shortDate('2026-11-27T00:30:00Z'), '27 Nov 2026');
  assert.equal(shortDate('not a date'), '');
});

test("a profile's option rows and mistake kinds read as words, unknown ones too", () => {
  assert.deepEqual(
    [
      ['innsCathedrals', 'on'],
      ['river', 'off'],
      ['tinyCity', 'on'],
      ['rated', 'on'],
      ['rated', 'off'],
      ['farmers', '2nd'],
      ['newOption', 'on'],
    ].map(([o, v]) => optionLabel(o, v)),
    ['With Inns & Cathedrals', 'Without the River', 'With small cities', 'Rated', 'Not rated', 'Farmers 2nd edition', 'With newOption'],
  );
  assert.equal(mistakeWords('figure_withheld'), 'keeping a figure back where placing one was better');
  assert.equal(mistakeWords('a_new_kind'), 'a new kind', 'a kind this client does not know yet');
  assert.equal(new Set(Object.values(MISTAKE_WORDS)).size, 6, 'six kinds, each in its own words');
});

test('the rating chart starts before the first rated game and runs oldest to newest whatever order the history comes in', () => {
  assert.equal(ratingChartData([]), null);
  const change = (gameId: string, at: string, before: number, after: number) => ({ gameId, at, rank: 1, before, after, mu: 25, sigma: 8 });
  const data = ratingChartData([change('c', '2026-11-03T10:00:00Z', 1480, 1530), change('a', '2026-11-01T10:00:00Z', 1000, 1500), change('b', '2026-11-02T10:00:00Z', 1500, 1480)]);
  assert.deepEqual(data, { values: [1000, 1500, 1480, 1530], from: '1 Nov 2026', to: '3 Nov 2026' });
  assert.deepEqual(ratingChartData([change('a', '2026-11-01T10:00:00Z', 1000, 1012)])?.values, [1000, 1012], 'one game is already a line');
});

test('a fitted axis spans the values in nice steps instead of starting at 0', () => {
  // A span of 50 in about 4 steps: 12.5 rounds up to the nice step 20.
  assert.deepEqual(rangeTicks(1480, 1530), [1480, 1500, 1520, 1540]);
  assert.deepEqual(rangeTicks(1473, 1538), [1460, 1480, 1500, 1520, 1540]);
  assert.deepEqual(rangeTicks(1500, 1500), [1500, 1550], 'one value still gets an axis');
  assert.deepEqual(rangeTicks(-12, 7), [-15, -10, -5, 0, 5, 10]);
  for (const [lo, hi] of [
    [0.3, 0.9],
    [980, 2150],
    [-40, -3],
  ]) {
    const t = rangeTicks(lo, hi);
    assert.ok(t[0] <= lo && t.at(-1)! >= hi && t.length >= 2 && t.length <= 7, `${lo}..${hi}: ${t}`);
  }
  const chart = lineChart({ series: [{ name: 'rating', color: '#000', values: [1500, 1480, 1530] }], fitY: true, xLabels: ['1 Nov', '3 Nov'] });
  assert.match(chart, />1480<\/text>/, 'the lowest tick is labelled');
  assert.doesNotMatch(chart, />0<\/text>/, 'no 0 on a fitted axis');
  assert.match(chart, />1 Nov<\/text>.*>3 Nov<\/text>/);
  // The frame is 138 high from y = 10 over 1480..1540: 1480 on its bottom (148), 1500 a third up
  // (148 − 46 = 102), 1530 five sixths up (148 − 115 = 33).
  const ys = [...chart.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));
  assert.deepEqual(ys, [102, 148, 33]);
});

test("your games: the player's games and this browser's seats, one entry per game, newest first", () => {
  const at = (iso: string) => Date.parse(iso);
  const playerGames: PlayerGame[] = [
    { gameId: 'g1', seat: 0, name: 'Ada', at: at('2026-11-27T00:10:00Z') },
    { gameId: 'g2', seat: 1, name: 'Ada', at: at('2026-11-26T00:10:00Z') },
  ];
  const held: HeldSeat[] = [
    { gameId: 'g2', seat: 1, token: 't2', name: 'Ada (old name)', at: at('2026-11-27T01:00:00Z') },
    { gameId: 'old', seat: 0, token: 't0', name: 'Ada before players', at: at('2026-11-20T00:00:00Z') },
  ];
  const mine = mergeMyGames(playerGames, held);
  assert.deepEqual(
    mine.map((m) => [m.gameId, m.seat, m.name]),
    [
      ['g2', 1, 'Ada'],
      ['g1', 0, 'Ada'],
      ['old', 0, 'Ada before players'],
    ],
    "a game in both lists keeps the player's seat name and the later time",
  );
  assert.equal(playerGames[1].at, at('2026-11-26T00:10:00Z'), 'the lists given are not changed');
  assert.equal(mergeMyGames(playerGames, held, 2).length, 2, 'the list is bounded');
  assert.deepEqual(mergeMyGames([], []), []);
});
