// A player's profile numbers from hand-made games and analyses: placings with ties, results by
// player count and by option, points lost per move, and every kind of mistake.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Move } from '../bot-engine/game.ts';
import type { StoredAnalysis, StoredPosition } from '../server/analysis/stored.ts';
import { mistakeKind } from '../server/profiles/mistakes.ts';
import { mistakesBySeat, type PlayedGame, placeOf, playerStats } from '../server/profiles/stats.ts';

const at = (x: number, y: number, rotation = 0, meeple: string | null = null, extra: Partial<Move> = {}): Move => ({ x, y, rotation, meeple, ...extra });

test('each kind of mistake is named from the played and the best move', () => {
  const cases: [string, Move, Move, string | null][] = [
    ['same move', at(1, 0, 90, 'city:N'), at(1, 0, 90, 'city:N'), null],
    ['abbot taken back too early', at(1, 0, 0, null, { returnAbbot: true }), at(1, 0, 0, 'road:E'), 'abbot_timing'],
    ['abbot kept too long', at(0, 1), at(0, 1, 0, null, { returnAbbot: true }), 'abbot_timing'],
    ['no figure where one was due', at(1, 0), at(1, 0, 0, 'city:N'), 'figure_withheld'],
    ['a figure spent for nothing', at(1, 0, 0, 'field:NE'), at(2, 0), 'figure_wasted'],
    ['road instead of city', at(1, 0, 0, 'road:E'), at(1, 0, 0, 'city:N'), 'wrong_feature'],
    ['field instead of monastery', at(0, -1, 0, 'field:SW'), at(0, -1, 0, 'monastery'), 'wrong_feature'],
    ['abbot on a garden instead of a follower on a city', at(0, -1, 0, 'garden', { figure: 'abbot' }), at(0, -1, 0, 'city:W'), 'wrong_feature'],
    ['a follower where the large one belonged', at(1, 0, 0, 'city:N'), at(1, 0, 0, 'city:N', { figure: 'large' }), 'wrong_figure'],
    ['another cell, no figure either way', at(1, 0), at(-1, 0), 'tile_placement'],
    ['another rotation, same figure', at(1, 0, 0, 'city:N'), at(1, 0, 180, 'city:S'), 'tile_placement'],
    ['same tile, the city on the other side', at(1, 0, 0, 'city:N'), at(1, 0, 0, 'city:S'), 'tile_placement'],
  ];
  for (const [why, played, best, kind] of cases) assert.equal(mistakeKind(played, best), kind, why);
});

test('a place counts the seats that scored more: ties share the better place', () => {
  assert.deepEqual(
    [0, 1, 2, 3].map((seat) => placeOf([30, 45, 30, 12], seat)),
    [2, 1, 2, 4],
  );
});

const me = 'p_AAAAAAAAAAAAAAAAAAAAAA';
const other = 'p_BBBBBBBBBBBBBBBBBBBBBB';

function game(id: string, scores: number[], mySeat: number, rules: Partial<PlayedGame['setup']['rules']> = {}, analysis?: StoredAnalysis): PlayedGame {
  return {
    setup: {
      id,
      createdAt: '2026-11-01T00:00:00.000Z',
      seed: 's',
      rules: { tinyCity: false, farmers: '3rd', ...rules },
      seats: scores.map((_, i) => (i === mySeat || i === 0 ? { kind: 'person' as const } : { kind: 'bot' as const, level: 'expert' as const })),
      clock: { turnSeconds: null, graceSeconds: 60 },
      standIn: 'greedy',
    },
    holders: scores.map((_, i) => (i === mySeat ? { name: 'Ann', tokenHash: 'h', playerId: me } : i === 0 ? { name: 'Bo', tokenHash: 'h', playerId: other } : { name: 'Bot', tokenHash: null })),
    end: { abandoned: false, scores },
    finishedAt: '2026-11-01T01:00:00.000Z',
    ...(analysis ? { analysis: mistakesBySeat(analysis) } : {}),
  };
}

function analysis(positions: Pick<StoredPosition, 'seat' | 'loss' | 'played' | 'best'>[]): StoredAnalysis {
  return {
    v: 1,
    createdAt: '2026-11-01T02:00:00.000Z',
    engine: { level: 'expert', samples: 16, version: 2 },
    names: [],
    positions: positions.map((p, i) => ({ moveIndex: i, tile: 'A', playedValue: 0, bestValue: p.loss, ...p })),
  };
}

test('results by player count and by option, from the player’s own seat', () => {
  const stats = playerStats(me, [
    game('g1', [10, 50], 1), // 2 players: first
    game('g2', [60, 20, 40], 2, { river: true }), // 3 players: second
    game('g3', [30, 30, 10], 1, { farmers: '1st', river: true }), // 3 players: tied first
    game('g4', [5, 9], -1), // listed, but the player holds no seat in it: not counted
  ]);
  assert.equal(stats.games, 3);
  assert.equal(stats.wins, 2);
  assert.equal(stats.meanPlace, 1.33);
  assert.deepEqual(stats.byPlayers, [
    { players: 2, games: 1, wins: 1, meanPlace: 1 },
    { players: 3, games: 2, wins: 1, meanPlace: 1.5 },
  ]);
  const row = (option: string, value: string) => stats.byOption.find((r) => r.option === option && r.value === value);
  assert.deepEqual(row('river', 'on'), { option: 'river', value: 'on', games: 2, wins: 1, meanPlace: 1.5 });
  assert.deepEqual(row('river', 'off'), { option: 'river', value: 'off', games: 1, wins: 1, meanPlace: 1 });
  assert.deepEqual(row('farmers', '1st'), { option: 'farmers', value: '1st', games: 1, wins: 1, meanPlace: 1 });
  assert.equal(row('farmers', '3rd')?.games, 2);
  assert.equal(row('abbot', 'on'), undefined, 'an option never played has no row');
});

test('points lost per move and the most common mistake count only the player’s analysed moves', () => {
  const withdrawn = { played: at(1, 0), best: at(1, 0, 0, 'city:N') };
  const wrongFeature = { played: at(1, 0, 0, 'road:E'), best: at(1, 0, 0, 'city:N') };
  const stats = playerStats(me, [
    game(
      'a1',
      [10, 20],
      1,
      {},
      analysis([
        { seat: 1, loss: 4, ...withdrawn },
        { seat: 0, loss: 9, ...wrongFeature }, // the other player's: not counted
        { seat: 1, loss: 0, played: at(2, 0), best: at(2, 0) },
        { seat: 1, loss: 2.5, ...wrongFeature }, // under MISTAKE_POINTS: a loss, not a mistake
      ]),
    ),
    game(
      'a2',
      [10, 20, 5],
      2,
      {},
      analysis([
        { seat: 2, loss: 3, ...withdrawn },
        { seat: 2, loss: 6.5, ...wrongFeature },
      ]),
    ),
    game('unanalysed', [10, 20], 1),
  ]);
  assert.equal(stats.analysis.games, 2);
  assert.equal(stats.analysis.moves, 5);
  assert.equal(stats.analysis.pointsLostPerMove, 3.2); // (4 + 0 + 2.5 + 3 + 6.5) / 5
  assert.equal(stats.analysis.mistakes, 3);
  assert.equal(stats.analysis.byKind.figure_withheld, 2);
  assert.equal(stats.analysis.byKind.wrong_feature, 1);
  assert.equal(stats.analysis.commonMistake, 'figure_withheld');
});

test('no games and no analyses: counts are zero and means are null, not NaN', () => {
  const stats = playerStats(me, []);
  assert.deepEqual({ games: stats.games, meanPlace: stats.meanPlace, byPlayers: stats.byPlayers, byOption: stats.byOption }, { games: 0, meanPlace: null, byPlayers: [], byOption: [] });
  assert.deepEqual({ ...stats.analysis, byKind: undefined }, { games: 0, moves: 0, pointsLostPerMove: null, mistakes: 0, byKind: undefined, commonMistake: null });
});
