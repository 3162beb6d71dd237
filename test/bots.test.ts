// Bots: legal moves under every rule option and player count, determinism, hidden bag order,
// and the safety cap (deadline / cancellation). In-process; the worker tests are in
// bots-worker.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOT_LEVELS, type BotLevel, type BotDecision, chooseMove } from '../bot-engine/bots/index.ts';
import { evaluate, finalValues, margin } from '../bot-engine/bots/evaluate.ts';
import { MAX_MOVES, listMoves, moveFi, moveR, moveSpot, scoreMoves } from '../bot-engine/bots/moves.ts';
import { SEARCH_LEVELS, budgetAt, lastSearchWork, rolloutPlies, rolloutSearch } from '../bot-engine/bots/rollout.ts';
import { type Move, legalMoves, newGame, resolvedToMove } from '../bot-engine/game.ts';
import { type Rules, bagEmpty, discardUnplaceable, finalScoring, find, hideBag, majority, place } from '../bot-engine/rules.ts';
import { MOD_CATHEDRAL, MOD_INN } from '../bot-engine/feature-modifiers.ts';
import { KIND_CITY, MAX_SEGMENTS } from '../bot-engine/tiles.ts';
import { BAG_SIZE, GameState, H_BAGPOS } from '../bot-engine/state.ts';
import { Rng, mixSeed } from '../bot-engine/rng.ts';
import { randomMove } from '../bot-engine/playout.ts';

const RULES: Rules[] = [];
for (const tinyCity of [false, true]) for (const farmers of ['1st', '2nd', '3rd'] as const) RULES.push({ tinyCity, farmers });

/** Small budgets for the search (rollout.ts: medium/hard/expert), one round ahead and two (as
 * expert), cheap enough for whole games. */
const ROLLOUT_LITE = { candidates: 3, samples: 1, horizon: 1, halving: true };
const TWO_ROUNDS_LITE = { candidates: 2, samples: 1, horizon: 4, halving: true };

function key(m: Move): string {
  return `${m.x},${m.y},${m.rotation},${m.meeple},${m.figure ?? 'follower'}`;
}

function assertLegal(s: GameState, d: BotDecision, label: string): void {
  const legal = new Set(legalMoves(s).map(key));
  const move = resolvedToMove(s, d);
  assert.ok(legal.has(key(move)), `${label}: illegal move ${JSON.stringify(move)}`);
}

function view(s: GameState): GameState {
  return hideBag(s.clone());
}

/** A position some way into a game, reached by seeded random play. */
function midGame(seed: string, players: number, turns: number, rules?: Partial<Rules>): GameState {
  const s = newGame({ players, seed, rules });
  const rng = new Rng(seed);
  for (let t = 0; t < turns && !bagEmpty(s); t++) {
    const m = randomMove(s, rng);
    place(s, m.fi, m.r, m.spot);
    discardUnplaceable(s);
  }
  return s;
}

/** The expansions' combinations (with a base option each, so they mix with those too). */
const EXPANSION_RULES: Rules[] = [
  { tinyCity: false, farmers: '3rd', innsCathedrals: true },
  { tinyCity: true, farmers: '3rd', river: true },
  { tinyCity: false, farmers: '1st', innsCathedrals: true, river: true },
  { tinyCity: false, farmers: '2nd', abbot: true },
  { tinyCity: false, farmers: '3rd', innsCathedrals: true, river: true, abbot: true },
];

test('bots play only legal moves in whole games under every rule option, 2-5 players', () => {
  assert.equal(
    playLegally(RULES, () => [2, 3, 4, 5]),
    24,
  );
});

test('bots play only legal moves in whole games with the expansions, 2-6 players', () => {
  assert.equal(
    playLegally(EXPANSION_RULES, (rules) => (rules.innsCathedrals ? [2, 4, 6] : [2, 5])),
    13,
  );
});

function playLegally(ruleSets: Rules[], playerCounts: (rules: Rules) => number[]): number {
  let games = 0;
  for (let i = 0; i < ruleSets.length; i++) {
    for (const players of playerCounts(ruleSets[i])) {
      const rules = ruleSets[i];
      const s = newGame({ players, seed: `legal-${i}-${players}`, rules });
      // Seats cycle through the cheap levels and a small-budget search.
      const cheap = ['random', 'greedy', 'heuristic', 'two-rounds', 'rollout', 'heuristic', 'greedy'];
      const seats = Array.from({ length: players }, (_, p) => cheap[(((i + players) % 3) + p) % cheap.length]);
      let turn = 0;
      while (!bagEmpty(s)) {
        const seat = s.currentPlayer;
        const v = view(s);
        const level = seats[seat];
        const seed = mixSeed(i, players, turn, seat);
        const d = level === 'two-rounds' ? rolloutSearch(v, TWO_ROUNDS_LITE, seed) : level === 'rollout' ? rolloutSearch(v, ROLLOUT_LITE, seed) : chooseMove(v, level as BotLevel, seed);
        assertLegal(s, d, `${JSON.stringify(rules)} ${players}p turn ${turn} ${level}`);
        place(s, d.fi, d.r, d.spot);
        discardUnplaceable(s);
        turn++;
      }
      finalScoring(s);
      assert.ok(s.finished);
      games++;
    }
  }
  return games;
}

test('every level, at its real budget, answers legally at several points of a game', () => {
  for (const level of BOT_LEVELS) {
    for (const [turns, players] of [
      [3, 2],
      [30, 3],
      [60, 4],
      [45, 5],
    ] as const) {
      const s = midGame(`levels-${level}-${turns}`, players, turns, RULES[turns % RULES.length]);
      if (bagEmpty(s)) continue;
      const d = chooseMove(view(s), level, 7);
      assertLegal(s, d, `${level} after ${turns} turns`);
      assert.equal(d.stopped, false);
    }
  }
});

test('same view, level and seed give the same move (module scratch state does not leak)', () => {
  const a = midGame('det-a', 2, 20);
  const b = midGame('det-b', 3, 35);
  for (const level of BOT_LEVELS) {
    const first = chooseMove(view(a), level, 42);
    chooseMove(view(b), level, 43); // dirty every module-level scratch in between
    const again = chooseMove(view(a), level, 42);
    assert.deepEqual(again, first, level);
  }
});

test('the hidden bag order is never read: states differing only in it give the same move', () => {
  for (const [i, turns] of [10, 25, 50].entries()) {
    const s = midGame(`hidden-${i}`, 2 + i, turns);
    if (bagEmpty(s)) continue;
    const other = s.clone();
    // Reverse the undrawn tiles after the current one: same multiset, different order.
    const from = other.h[H_BAGPOS] + 1;
    other.bag.subarray(from, BAG_SIZE).reverse();
    assert.notDeepEqual([...other.bag.subarray(from)], [...s.bag.subarray(from)]);
    for (const level of BOT_LEVELS) {
      // The raw states, not views: chooseMove must hide the order itself.
      const x = chooseMove(s, level, 99);
      const y = chooseMove(other, level, 99);
      assert.deepEqual(y, x, `${level} after ${turns} turns`);
    }
  }
});

test('chooseMove leaves the caller state untouched', () => {
  const s = midGame('untouched', 2, 15);
  const before = new Uint8Array(s.bytes);
  for (const level of BOT_LEVELS) chooseMove(s, level, 1);
  assert.deepEqual(new Uint8Array(s.bytes), before);
});

test('a raised stop stops the search promptly and still returns a legal move', () => {
  const s = midGame('stop', 2, 12);
  for (const level of ['medium', 'hard', 'expert'] as const) {
    let polls = 0;
    const cpu0 = process.threadCpuUsage();
    const d = chooseMove(view(s), level, 5, { shouldStop: () => ++polls > 2 });
    const used = process.threadCpuUsage(cpu0);
    const ms = (used.user + used.system) / 1000;
    assert.equal(d.stopped, true, level);
    assert.ok(d.iterations <= 12, `${level}: ${d.iterations} iterations after the stop`);
    assert.ok(ms < 300, `${level} searched ${ms} ms of CPU`); // a few rollouts at most (thread CPU: a busy machine pauses, it does not add work)
    assertLegal(s, d, level);
    // Stopped before the first iteration: the best move by the prior.
    const now = chooseMove(view(s), level, 5, { shouldStop: () => true });
    assert.equal(now.iterations, 0);
    assertLegal(s, now, level);
  }
});

test('greedy under a control: bounded on late-game positions, legal, and with no stop exactly greedy', () => {
  const never = { shouldStop: () => false };
  let bounded = 0;
  for (const players of [2, 3, 4]) {
    // Late in a game, where final scoring over every move is slowest (the main-thread fallback's case).
    for (const turns of [40, 55, 65, 70]) {
      const s = midGame(`greedy-bound-${players}-${turns}`, players, turns);
      if (bagEmpty(s)) continue;
      const all = listMoves(s, new Int32Array(MAX_MOVES));
      for (const seed of [1, 2, 3]) {
        const free = chooseMove(view(s), 'greedy', seed, never);
        assert.deepEqual(free, chooseMove(view(s), 'greedy', seed), `${players}p turn ${turns}: a control that never stops changes nothing`);
        let polls = 0;
        const cut = chooseMove(view(s), 'greedy', seed, { shouldStop: () => ++polls >= 3 });
        assertLegal(s, cut, `${players}p turn ${turns}`);
        if (all <= 3) continue;
        assert.equal(cut.iterations, 3, 'scores until the control says stop');
        assert.ok(cut.iterations < all && cut.stopped);
        assert.deepEqual(
          cut,
          chooseMove(view(s), 'greedy', seed, {
            shouldStop: (
              (k) => () =>
                ++k >= 3
            )(0),
          }),
          'same seed, same move',
        );
        const first = chooseMove(view(s), 'greedy', seed, { shouldStop: () => true });
        assert.equal(first.iterations, 1, 'an immediate stop still scores one move');
        assertLegal(s, first, 'immediate stop');
        bounded++;
      }
    }
  }
  assert.ok(bounded >= 20, `${bounded} bounded positions`);
});

test('search budgets: rollouts and their length follow the level table at 2 to 6 players', () => {
  for (const horizon of [1, 2, 3, 4, 6]) assert.equal(rolloutPlies(horizon, 2), Math.max(2, horizon), 'two players: the horizon as given');
  for (const players of [3, 4, 5, 6]) {
    assert.equal(rolloutPlies(2, players), players, 'horizon 2 = one round');
    assert.equal(rolloutPlies(4, players), 2 * players, 'horizon 4 = two rounds');
  }
  for (const players of [2, 3, 4, 5, 6] as const) {
    const s = midGame(`budget-${players}`, players, 20, players === 6 ? EXPANSION_RULES[4] : undefined);
    const distinct = listMoves(s, new Int32Array(MAX_MOVES));
    for (const level of ['medium', 'hard', 'expert'] as const) {
      const p = budgetAt(SEARCH_LEVELS[level], players);
      let field = Math.min(p.candidates, distinct);
      let samples = p.samples;
      let rollouts = 0;
      for (; field > 1; field = Math.ceil(field / 2), samples *= 2) rollouts += field * samples;
      const uncapped = { ...SEARCH_LEVELS[level], maxWork: undefined };
      assert.equal(rolloutSearch(view(s), uncapped, 3).iterations, rollouts, `${level}, ${players} players, no work ceiling`);
      const capped = chooseMove(view(s), level, 3);
      assert.ok(capped.iterations <= rollouts, `${level}, ${players} players: ${capped.iterations} rollouts, more than the table's ${rollouts}`);
      // A round may pass its share by what its last determinization cost more than the mean.
      assert.ok(lastSearchWork() <= 1.2 * p.maxWork!, `${level}, ${players} players: work ${lastSearchWork()} over the ceiling ${p.maxWork}`);
    }
  }
});

test('the work ceiling binds where a ply is dear (six players, every option), not in ordinary two-player base-game positions', () => {
  const six = midGame('ceiling-6', 6, 60, EXPANSION_RULES[4]);
  const full = rolloutSearch(view(six), { ...SEARCH_LEVELS.hard, maxWork: undefined }, 5).iterations;
  const capped = chooseMove(view(six), 'hard', 5);
  assert.ok(capped.iterations < full, `hard at six players: ${capped.iterations} rollouts, the table's ${full}`);
  assert.ok(capped.iterations >= 8 + 4 + 2, 'every halving round still plays at least one determinization');
  for (const turns of [10, 40, 60]) {
    const two = midGame(`ceiling-2-${turns}`, 2, turns);
    for (const level of ['medium', 'hard', 'expert'] as const) {
      const uncapped = rolloutSearch(view(two), { ...SEARCH_LEVELS[level], maxWork: undefined }, turns);
      const played = chooseMove(view(two), level, turns);
      assert.equal(played.iterations, uncapped.iterations, `${level}, two players, turn ${turns}`);
      assert.deepEqual(resolvedToMove(two, played), resolvedToMove(two, uncapped));
    }
  }
});

test('at five and six players expert looks one round ahead on its 12 best moves (two rounds of 5–6 players drift: docs/BOTS.md, Full tables)', () => {
  // The level's move is the one-round search's, and (in some of these positions) not the
  // two-round search's it was before: so the table's row is what plays.
  const tables = [
    { players: 5, samples: 4, rules: undefined },
    { players: 6, samples: 2, rules: EXPANSION_RULES[4] },
  ];
  for (const { players, samples, rules } of tables) {
    const oneRound = { candidates: 12, samples, horizon: 2, halving: true, maxWork: SEARCH_LEVELS.expert.maxWork };
    const twoRounds = { ...oneRound, samples: 2, horizon: 4 };
    let differs = 0;
    for (const turns of [12, 30, 48, 66]) {
      const s = midGame(`${players}p-${turns}`, players, turns, rules);
      const seed = mixSeed(players, turns);
      const played = chooseMove(view(s), 'expert', seed);
      assert.deepEqual(resolvedToMove(s, played), resolvedToMove(s, rolloutSearch(view(s), oneRound, seed)), `${players} players, turn ${turns}`);
      if (key(resolvedToMove(s, played)) !== key(resolvedToMove(s, rolloutSearch(view(s), twoRounds, seed)))) differs++;
    }
    assert.ok(differs > 0, `${players} players: the two-round search would play the same moves: the positions do not tell them apart`);
  }
});

test('the evaluation is finite and counts banked points', () => {
  const s = midGame('eval', 4, 40);
  const out = new Float64Array(4);
  evaluate(s, out);
  for (let p = 0; p < 4; p++) {
    assert.ok(Number.isFinite(out[p]));
    assert.ok(out[p] >= s.score(p), `player ${p}: ${out[p]} < banked ${s.score(p)}`);
  }
});

test('scoring moves in bulk gives exactly the value of each move placed and judged on its own', () => {
  // scoreMoves scores a placement's follower moves on one placed copy and reuses the
  // evaluation's findings there: it must agree, to the last bit, with doing each from scratch.
  const moves = new Int32Array(MAX_MOVES);
  const bulk = new Float64Array(MAX_MOVES);
  const values = new Float64Array(4);
  const scratch = new GameState();
  let checked = 0;
  for (const [i, rules] of RULES.entries()) {
    const players = 2 + (i % 3);
    for (const turns of [3, 25, 50, 80]) {
      const s = midGame(`bulk-${i}-${turns}`, players, turns, rules);
      if (bagEmpty(s)) continue;
      const n = listMoves(s, moves);
      for (const mode of ['heuristic', 'greedy'] as const) {
        scoreMoves(s, moves, n, bulk, scratch, mode);
        for (let k = 0; k < n; k++) {
          const t = s.clone();
          place(t, moveFi(moves[k]), moveR(moves[k]), moveSpot(moves[k]));
          if (mode === 'heuristic' && !bagEmpty(t)) evaluate(t, values);
          else {
            finalScoring(t);
            finalValues(t, values);
          }
          assert.equal(bulk[k], margin(values, players, s.currentPlayer), `${mode}, rules ${i}, turn ${turns}, move ${k}`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 1000, `${checked} moves checked`);
});

test('the evaluation of a position does not depend on what was evaluated before it', () => {
  // The evaluation caches what it finds per feature; positions of one game share feature roots,
  // so judging them in opposite orders would expose a stale cache.
  const positions: GameState[] = [];
  for (const players of [2, 3, 4]) {
    const s = midGame(`order-${players}`, players, 0);
    const rng = new Rng(`order-${players}`);
    while (!bagEmpty(s)) {
      positions.push(s.clone());
      const m = randomMove(s, rng, 0.6);
      place(s, m.fi, m.r, m.spot);
      discardUnplaceable(s);
    }
  }
  const judge = (order: GameState[]) =>
    new Map(
      order.map((p) => {
        const out = new Float64Array(4);
        evaluate(p, out);
        return [p, Array.from(out)];
      }),
    );
  const forward = judge(positions);
  const backward = judge([...positions].reverse());
  for (const p of positions) assert.deepEqual(backward.get(p), forward.get(p));
});

test('the level table cannot be changed by a caller', () => {
  assert.throws(() => {
    (SEARCH_LEVELS.hard as { candidates: number }).candidates = 99;
  }, TypeError);
  assert.throws(() => {
    (SEARCH_LEVELS as Record<string, unknown>).hard = { candidates: 99 };
  }, TypeError);
  assert.equal(SEARCH_LEVELS.hard.candidates, 8);
});

test("the evaluation knows an inn's and a cathedral's stakes: more when completed, nothing when not", () => {
  // For a road or city held by a majority, the evaluation counts chance × completed value +
  // (1 − chance) × end value. An inn turns a road's (t, t) into (2t, 0); a cathedral a city's
  // (2(t + p), t + p) into (3(t + p), 0). So clearing the modifier from the feature's root
  // changes each majority holder's value by t(2c − 1) for an inn and by (t + p)(2c − 1) for a
  // cathedral, c being the completion chance: between −(t + p) and +(t + p), below zero when the
  // feature is unlikely to close, and nothing for the players without the majority.
  const out = new Float64Array(6);
  const plain = new Float64Array(6);
  let seen = 0;
  let losing = 0;
  let winning = 0;
  for (let g = 0; g < 40; g++) {
    const players = 2 + (g % 5);
    const s = midGame(`stakes-${g}`, players, 20 + ((g * 7) % 60), { innsCathedrals: true });
    if (bagEmpty(s)) continue;
    for (let q = 1; q < s.placed; q++) {
      const spot = s.pspot[q];
      if (spot < 0 || s.owner[q * MAX_SEGMENTS + spot] < 0) continue;
      const root = find(s, q * MAX_SEGMENTS + spot);
      const mod = s.mods[root] & (MOD_INN | MOD_CATHEDRAL);
      if (mod === 0 || s.open[root] <= 0) continue;
      const bare = s.clone();
      bare.mods[root] &= ~mod;
      evaluate(s, out);
      evaluate(bare, plain);
      const stake = featureSize(s, root) + (s.kind[root] === KIND_CITY ? s.pennants[root] : 0);
      const holders = majority(s, root);
      for (let p = 0; p < players; p++) {
        const diff = out[p] - plain[p];
        if (!(holders & (1 << p))) assert.ok(Math.abs(diff) < 1e-9, `player ${p} holds no majority there: ${diff}`);
        else {
          assert.ok(diff >= -stake - 1e-9 && diff <= stake + 1e-9, `holder ${p}: ${diff} outside ±${stake}`);
          if (diff < -1e-9) losing++;
          if (diff > 1e-9) winning++;
        }
      }
      seen++;
    }
  }
  assert.ok(seen >= 10, `${seen} held features with an inn or a cathedral`);
  assert.ok(losing > 0 && winning > 0, `unlikely ones cost (${losing}), likely ones pay (${winning})`);
});

/** Distinct tiles of a feature. */
function featureSize(s: GameState, root: number): number {
  const tiles = new Set<number>();
  let n = root;
  do {
    tiles.add(Math.floor(n / MAX_SEGMENTS));
    n = s.next[n];
  } while (n !== root);
  return tiles.size;
}
