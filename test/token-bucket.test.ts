// The token bucket behind the WebSocket rate limit and table talk, on a clock the test drives.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenBucket } from '../server/token-bucket.ts';

test('a bucket gives its burst at once, then one token per refill period, never more than the burst', () => {
  const bucket = new TokenBucket(3, 1000, 0);
  assert.deepEqual(
    [1, 2, 3, 4].map(() => bucket.take(0)),
    [true, true, true, false],
  );
  assert.equal(bucket.take(999), false, 'not yet a whole token');
  assert.equal(bucket.take(1000), true, 'a whole token after one period');
  assert.equal(bucket.take(1000), false);
  // A long quiet spell refills to the burst, not beyond.
  assert.deepEqual(
    [1, 2, 3, 4].map(() => bucket.take(60_000)),
    [true, true, true, false],
  );
});

test('a refused take costs nothing: the refill goes on from the last take', () => {
  const bucket = new TokenBucket(1, 100, 0);
  assert.equal(bucket.take(0), true);
  assert.equal(bucket.take(50), false);
  assert.equal(bucket.take(100), true, 'half a token at 50 ms, a whole one at 100 ms');
});
