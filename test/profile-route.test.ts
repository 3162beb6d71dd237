// GET /api/players/:id/profile on the real app and its default store (SQLite): a player's name
// from the players table, their games found by the seats they held, their stored analyses
// counted (only games made public: listed or rated), unknown, deleted and malformed ids refused.

import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { StoredAnalysis } from '../server/analysis/stored.ts';
import { newSessionId, sessionHash } from '../server/players/store.ts';
import { saveAnalysis } from '../server/games/store-operations.ts';
import type { SeatHolder } from '../server/games/store.ts';
import type { PlayerProfile } from '../server/wire/profile.ts';
import { get, injectServer, twoPeopleSetup } from './server-helpers.ts';

const ann = 'p_annAAAAAAAAAAAAAAAAAAA';
const bo = 'p_boBBBBBBBBBBBBBBBBBBBB';
const holder = (name: string, playerId?: string): SeatHolder => ({ name, tokenHash: 'ab', ...(playerId ? { playerId } : {}) });

let app: FastifyInstance;

let lastFinishedAt = Date.now();

/** A finished two-seat game stored as the rooms store one: created, then ended with its scores,
 * 5 ms after the one before on a mocked clock (the store reads the time on this thread):
 * finishedAt orders the listing. */
async function finishedGame(id: string, holders: SeatHolder[], scores: number[], made: { rated?: true; listed?: true } = { listed: true }): Promise<void> {
  lastFinishedAt = Math.max(Date.now(), lastFinishedAt + 5);
  mock.timers.enable({ apis: ['Date'], now: lastFinishedAt });
  try {
    await app.store.create({ ...twoPeopleSetup(id), ...made }, holders);
    await app.store.appendMoves(id, [], { abandoned: false, scores });
  } finally {
    mock.timers.reset();
  }
}

const analysisOf = (positions: StoredAnalysis['positions']): StoredAnalysis => ({
  v: 1,
  createdAt: new Date().toISOString(),
  engine: { level: 'expert', samples: 16, version: 2 },
  names: ['Ann', 'Bo'],
  positions,
});
const position = (seat: number, loss: number, meeplePlayed: string | null, meepleBest: string | null) => ({
  moveIndex: 0,
  seat,
  tile: 'D',
  played: { x: 1, y: 0, rotation: 0, meeple: meeplePlayed },
  best: { x: 1, y: 0, rotation: 0, meeple: meepleBest },
  playedValue: 0,
  bestValue: loss,
  loss,
});

/** A player as the session routes make one (a guest with a session). */
const signUp = (id: string, name: string) =>
  app.players.createPlayer({ id, name, createdAt: new Date().toISOString() }, { hash: sessionHash(newSessionId()), playerId: id, expiresAt: Date.now() + 60_000 });

before(async () => {
  ({ app } = await injectServer({}, false));
  await signUp(ann, 'Annie');
  await signUp(bo, 'Bo');
  await finishedGame('g-old', [holder('Ann', ann), holder('Bo', bo)], [20, 30]);
  await finishedGame('g-guest', [holder('Ann'), holder('Cy')], [50, 10]); // Ann without a session: not hers
  await finishedGame('g-invite', [holder('Annie', ann), holder('Bo', bo)], [40, 10], {}); // an invite: stays among its players
  await finishedGame('g-new', [holder('Bo', bo), holder('Annie', ann)], [25, 25], { rated: true });
  await saveAnalysis(app.store, 'g-new', analysisOf([position(1, 5, null, 'city:N'), position(0, 8, 'road:E', 'city:N'), position(1, 1, 'city:N', 'city:N')]));
});
after(() => app.close());

test('a player’s profile: their name now, their games newest first, results and analysis', async () => {
  const { status, body } = await get(app, `/api/players/${ann}/profile`);
  assert.equal(status, 200);
  const profile = body as PlayerProfile;
  assert.equal(profile.name, 'Annie');
  assert.deepEqual(
    profile.recent.map((g) => [g.id, g.seat, g.place, g.rated, g.analysed]),
    [
      ['g-new', 1, 1, true, true],
      ['g-old', 0, 2, false, false],
    ],
  );
  assert.deepEqual(
    profile.recent[0].players.map((p) => [p.name, p.playerId, p.score]),
    [
      ['Bo', bo, 25],
      ['Annie', ann, 25],
    ],
    'each seat held by a player links to their profile',
  );
  assert.deepEqual({ games: profile.games, wins: profile.wins, meanPlace: profile.meanPlace }, { games: 2, wins: 1, meanPlace: 1.5 });
  assert.deepEqual(profile.byPlayers, [{ players: 2, games: 2, wins: 1, meanPlace: 1.5 }]);
  assert.deepEqual(
    profile.byOption.find((r) => r.option === 'rated' && r.value === 'on'),
    { option: 'rated', value: 'on', games: 1, wins: 1, meanPlace: 1 },
  );
  // Only Ann's two positions: 5 and 1 points lost, one mistake (a figure withheld).
  assert.deepEqual({ ...profile.analysis, byKind: profile.analysis.byKind.figure_withheld }, { games: 1, moves: 2, pointsLostPerMove: 3, mistakes: 1, byKind: 1, commonMistake: 'figure_withheld' });
});

test('the finished games list, like a profile, shows games made public only: an invite stays among its players', async () => {
  const everyone = (await get(app, '/api/games/finished')).body.games.map((g: { id: string }) => g.id);
  assert.deepEqual(everyone, ['g-new', 'g-guest', 'g-old']);
  const annies = (await get(app, '/api/games/finished?player=Annie')).body.games.map((g: { id: string }) => g.id);
  assert.deepEqual(annies, ['g-new']);
});

test('an unknown or deleted player is 404 unknown_player; a malformed id is 400 and reads nothing', async () => {
  const unknown = await get(app, '/api/players/p_zzzzzzzzzzzzzzzzzzzzzz/profile');
  assert.equal(unknown.status, 404);
  assert.equal((unknown.body as { code: string }).code, 'unknown_player');
  const cy = 'p_cyCCCCCCCCCCCCCCCCCCCC';
  await signUp(cy, 'Cy');
  await finishedGame('g-cy', [holder('Cy', cy), holder('Bo')], [3, 4]);
  assert.equal((await get(app, `/api/players/${cy}/profile`)).status, 200);
  await app.players.deletePlayer(cy, 'deleted player', new Date().toISOString());
  const deleted = await get(app, `/api/players/${cy}/profile`);
  assert.equal(deleted.status, 404, 'a deleted player has no profile');
  // A guest who never held a seat has no profile; one who held only an invite's has an empty one.
  const dee = 'p_deeDDDDDDDDDDDDDDDDDDD';
  await signUp(dee, 'Dee');
  assert.equal((await get(app, `/api/players/${dee}/profile`)).status, 404, 'a guest who never held a seat');
  await finishedGame('g-dee', [holder('Dee', dee), holder('Bo')], [3, 4], {});
  const invited = await get(app, `/api/players/${dee}/profile`);
  assert.equal(invited.status, 200);
  assert.deepEqual([(invited.body as PlayerProfile).games, (invited.body as PlayerProfile).recent], [0, []], "an invite's game is not shown");
  const malformed = await get(app, '/api/players/Ann/profile');
  assert.equal(malformed.status, 400);
  assert.equal((malformed.body as { code: string }).code, 'bad_request');
});

test('an analysis stored after a profile was read shows in the next read', async () => {
  const first = (await get(app, `/api/players/${bo}/profile`)).body as PlayerProfile;
  assert.deepEqual(
    first.recent.map((g) => [g.id, g.analysed]),
    [
      ['g-new', true],
      ['g-old', false],
    ],
  );
  await saveAnalysis(app.store, 'g-old', analysisOf([position(1, 4, 'road:E', null)]));
  const next = (await get(app, `/api/players/${bo}/profile`)).body as PlayerProfile;
  assert.deepEqual(
    next.recent.map((g) => [g.id, g.analysed]),
    [
      ['g-new', true],
      ['g-old', true],
    ],
  );
  // Bo's moves: 8 (a road where a city was due) in g-new, 4 (a figure for nothing) in g-old.
  assert.deepEqual([next.analysis.games, next.analysis.moves, next.analysis.pointsLostPerMove, next.analysis.mistakes], [2, 2, 6, 2]);
});
