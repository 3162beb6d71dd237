import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FinishedGames } from '../server/games/finished-games.ts';

interface Game {
  id: string;
  watched: boolean;
}

const game = (id: string, watched = false): Game => ({ id, watched });
const ids = (cache: FinishedGames<Game>, all: string[]) => all.filter((id) => cache.peek(id));

test('finished games: bounded, the least recently used leaves first; reading one makes it recent, peeking does not', () => {
  const cache = new FinishedGames<Game>(3, (g) => g.watched);
  for (const id of ['a', 'b', 'c']) cache.add(game(id));
  assert.equal(cache.get('a')?.id, 'a');
  assert.equal(cache.peek('b')?.id, 'b');
  cache.add(game('d'));
  assert.deepEqual(ids(cache, ['a', 'b', 'c', 'd']), ['a', 'c', 'd'], 'b was least recently used (a peek does not count)');
  assert.equal(cache.size, 3);
  assert.equal(cache.get('b'), undefined);
});

test('finished games: adding a game again replaces it, keyed by id, without growing', () => {
  const cache = new FinishedGames<Game>(2, (g) => g.watched);
  cache.add(game('a'));
  cache.add(game('b'));
  const again = game('a');
  cache.add(again);
  assert.equal(cache.size, 2);
  assert.equal(cache.peek('a'), again);
  cache.add(game('c'));
  assert.deepEqual(ids(cache, ['a', 'b', 'c']), ['a', 'c'], 'a re-added is recent: b leaves');
});

test('finished games: the limit counts games nobody watches; a watched one is never evicted, and leaves once unwatched and the oldest', () => {
  const watched = game('a', true);
  const cache = new FinishedGames<Game>(1, (g) => g.watched);
  cache.add(watched);
  cache.add(game('b'));
  assert.deepEqual(ids(cache, ['a', 'b']), ['a', 'b'], 'one game nobody watches, beside the watched one');
  cache.add(game('c'));
  assert.deepEqual(ids(cache, ['a', 'b', 'c']), ['a', 'c']);
  watched.watched = false;
  cache.add(game('d'));
  assert.deepEqual(ids(cache, ['a', 'b', 'c', 'd']), ['d']);
});

test('finished games: a limit of 0 keeps only what is watched', () => {
  const cache = new FinishedGames<Game>(0, (g) => g.watched);
  cache.add(game('a'));
  cache.add(game('b', true));
  assert.deepEqual(ids(cache, ['a', 'b']), ['b']);
});
