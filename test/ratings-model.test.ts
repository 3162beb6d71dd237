// The rating model against numbers worked out by hand from Weng & Lin (2011), "A Bayesian
// Approximation Method for Online Ranking", Algorithm 4 (Plackett-Luce), with openskill's constants
// β = 25/6, τ = 25/300 (added to σ² before the update) and κ = 1e-4. For players i in a game:
//   σ̃ᵢ² = σᵢ² + τ²,  c = √Σᵢ(σ̃ᵢ² + β²),  eᵢ = exp(μᵢ / c),
//   S_q = Σ_{s: rank(s) ≥ rank(q)} e_s,  A_q = how many share q's rank,
//   Ωᵢ = Σ_{q: rank(q) ≤ rank(i)} (1/A_q)·([q = i] − eᵢ/S_q),  Δᵢ = Σ_{same q} (1/A_q)·(eᵢ/S_q)(1 − eᵢ/S_q),
//   μᵢ' = μᵢ + (σ̃ᵢ²/c)·Ωᵢ,  σᵢ' = σ̃ᵢ·√max(1 − (σ̃ᵢ²/c²)·γᵢ·Δᵢ, κ),  γᵢ = σ̃ᵢ / c.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayRating, NEW_RATING, rateGame, rateSeats, ranksOf } from '../server/ratings/model.ts';

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} ≠ ${expected}`);

test('two new players, one wins', () => {
  // σ̃² = 625/9 + 1/144 = 69.451389; c = √(2·(69.451389 + 17.361111)) = √173.625 = 13.176684.
  // e₁ = e₂ = e. Winner: q = winner only, S = 2e: Ω = 1 − ½ = ½, Δ = ¼.
  //   μ' = 25 + 69.451389/13.176684 · ½ = 25 + 2.635389 = 27.635389.
  //   γ = 8.333750/13.176684 = 0.632468; σ' = 8.333750·√(1 − 0.4·0.632468·¼) = 8.333750·√0.936753 = 8.065901.
  // Loser: q = winner (S = 2e): Ω = −½, Δ = ¼; q = loser (S = e): Ω += 1 − 1 = 0, Δ += 0.
  //   μ' = 25 − 2.635389 = 22.364611; σ' the same 8.065901.
  const [winner, loser] = rateSeats([NEW_RATING, NEW_RATING], [1, 2]);
  close(winner.mu, 27.635389493, 'winner μ');
  close(loser.mu, 22.364610507, 'loser μ');
  close(winner.sigma, 8.065901414, 'winner σ');
  close(loser.sigma, 8.065901414, 'loser σ');
});

test('three new players, two tie for first', () => {
  // c = √(3·86.8125) = 16.138076. All eᵢ = e. Ranks 1, 1, 3: S for a first = 3e (everyone ranks ≥ 1), A = 2;
  // S for the third = e, A = 1.
  // A first (i = 1): q = 1: (1 − ⅓)/2 = ⅓; q = 2: (−⅓)/2 = −⅙ → Ω = ⅙; Δ = 2·(⅓·⅔)/2 = 2/9.
  //   μ' = 25 + 69.451389/16.138076·⅙ = 25 + 0.717262 = 25.717262.
  //   γ = 8.333750/16.138076 = 0.516404; σ' = 8.333750·√(1 − 0.266677·0.516404·2/9) = 8.205243.
  // The third: q = 1, 2: −⅓/2 each → Ω = −⅓; q = 3: 1 − 1 = 0 → μ' = 25 − 1.434525 = 23.565475; Δ = 2/9 likewise.
  const [a, b, third] = rateSeats([NEW_RATING, NEW_RATING, NEW_RATING], ranksOf([40, 40, 12]));
  close(a.mu, 25.71726217, 'first μ');
  close(b.mu, 25.71726217, 'tied first μ');
  close(third.mu, 23.56547566, 'third μ');
  close(third.sigma, 8.205243377, 'third σ');
});

test('five players of different ratings', () => {
  // Before: (30, 5), (25, 25/3), (20, 6), (28, 4), (22, 7); places 2, 1, 5, 3, 4.
  // c = √Σ(σ̃² + β²) = √(25.00694 + 69.45139 + 36.00694 + 16.00694 + 49.00694 + 5·17.36111) = 16.801331.
  // Worked through the sums above (S over the players placed at or below each q), e.g. the
  // winner (seat 1): Ω = 1 − e₁/S₁ where S₁ sums all five eᵢ; the last (seat 2) gets −Σ e₂/S_q over
  // every q placed above it plus (1 − 1) for itself.
  const after = rateSeats(
    [
      { mu: 30, sigma: 5 },
      { mu: 25, sigma: 25 / 3 },
      { mu: 20, sigma: 6 },
      { mu: 28, sigma: 4 },
      { mu: 22, sigma: 7 },
    ],
    [2, 1, 5, 3, 4],
  );
  const expected = [
    [30.610679399, 4.973339612],
    [28.32651064, 8.253456723],
    [17.721630288, 5.901787733],
    [28.04344473, 3.983811297],
    [21.42389239, 6.805833496],
  ];
  for (const [seat, [mu, sigma]] of expected.entries()) {
    close(after[seat].mu, mu, `seat ${seat} μ`);
    close(after[seat].sigma, sigma, `seat ${seat} σ`);
  }
});

test('places: ties share a place; leavers place below everyone who stayed, the first to leave last', () => {
  assert.deepEqual(ranksOf([30, 50, 30, 10]), [2, 1, 2, 4]);
  assert.deepEqual(ranksOf([90, 50, 30], [{ seat: 0, at: 5 }]), [3, 1, 2], 'the leader who left places last');
  assert.deepEqual(
    ranksOf(
      [90, 50, 30, 5],
      [
        { seat: 2, at: 2000 },
        { seat: 0, at: 1000 },
      ],
    ),
    [4, 1, 3, 2],
    'the leader left first: below the other leaver',
  );
  assert.deepEqual(
    ranksOf(
      [10, 90],
      [
        { seat: 0, at: 1000 },
        { seat: 1, at: 2000 },
      ],
    ),
    [2, 1],
    'both left: the one who stayed longer places first',
  );
  assert.deepEqual(
    ranksOf(
      [90, 50, 30],
      [
        { seat: 0, at: 7 },
        { seat: 2, at: 7 },
      ],
    ),
    [2, 1, 2],
    'leaving at the same moment shares a place',
  );
});

test('a bot level in two seats moves once, by the mean of its seats; a new player shows 1000', () => {
  assert.equal(displayRating(NEW_RATING), 1000);
  const ids = ['p_ann', 'bot:expert', 'bot:expert'];
  const ranks = [1, 2, 3];
  const rated = rateGame(ids, ranks, () => undefined);
  assert.deepEqual(
    rated.map((r) => [r.playerId, r.seats, r.rank]),
    [
      ['p_ann', [0], 1],
      ['bot:expert', [1, 2], 2],
    ],
  );
  const bySeat = rateSeats([NEW_RATING, NEW_RATING, NEW_RATING], ranks);
  close(rated[1].after.mu, (bySeat[1].mu + bySeat[2].mu) / 2, 'mean μ of the two seats');
  close(rated[0].after.mu, bySeat[0].mu, 'a person is rated as their seat');
  assert.ok(displayRating(rated[0].after) > 1000, 'the winner’s shown rating rises');
});
