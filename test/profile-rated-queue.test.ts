// The queue of automatic analyses (server/profiles/rated-analyses.ts) with the real analysis
// service, pool and SQLite store: rated games only, one at a time, a bounded backlog, a failure
// logged once and never retried, and a full service queue waited out, not fought.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { newGame } from '../bot-engine/game.ts';
import { type GameRecord, toRecord } from '../bot-engine/record.ts';
import { AnalysisService } from '../server/analysis/service.ts';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import { getAnalysis } from '../server/games/store-operations.ts';
import { RatedAnalyses } from '../server/profiles/rated-analyses.ts';
import { makePool, randomRecordMoves, twoPeopleSetup, WAIT } from './server-helpers.ts';

const pool = makePool(null);
before(() => pool.pool.start());
after(() => pool.close());

/** A finished two-player record of `placements` random placements. */
function recordOf(id: string, placements = 2): GameRecord {
  const state = newGame({ players: 2, seed: id });
  randomRecordMoves(state, 3, placements);
  return toRecord(state, ['Ann', 'Bo'], id);
}

/** The store with each game in it (an analysis is stored beside its game) and the analysis service and queue. */
async function setup(store: SqliteStore, records: Map<string, GameRecord>, maxJobs = 4, backlog?: number) {
  for (const [id, record] of records) {
    await store.create({ ...twoPeopleSetup(id), seed: id }, [null, null]);
    await store.appendMoves(id, record.moves, { abandoned: false, scores: [0, 0] });
  }
  const lines: { msg: string; gameId?: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const analysis = new AnalysisService({ pool: pool.pool, store, log, maxJobs });
  const rated = new RatedAnalyses({ analysis, store, log, record: async (id) => records.get(id), ...(backlog ? { backlog } : {}) });
  return { analysis, rated, lines, stored: async (id: string) => (await getAnalysis(store, id)) !== undefined };
}

test('rated games only, one at a time; past the backlog the oldest waiting is dropped and said so', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  const ids = ['g1', 'g2', 'g3', 'g4', 'plain'];
  const records = new Map(ids.map((id) => [id, recordOf(id)]));
  const { analysis, rated, lines, stored } = await setup(store, records, 4, 2);
  rated.finished({ ...twoPeopleSetup('plain') });
  for (const id of ['g1', 'g2', 'g3', 'g4']) rated.finished({ ...twoPeopleSetup(id), rated: true });
  // g1 is with the service; g2 and g3 waited, and g4 pushed g2 out.
  assert.equal((await analysis.status('g2')) ?? 'not asked', 'not asked');
  await t.waitFor(async () => assert.deepEqual(await Promise.all(['g1', 'g3', 'g4'].map(stored)), [true, true, true]), { ...WAIT, timeout: 30_000 });
  assert.deepEqual([await stored('g2'), await stored('plain')], [false, false]);
  assert.deepEqual(
    lines.filter((l) => l.msg.startsWith('automatic analyses backlog full')).map((l) => l.gameId),
    ['g2'],
  );
  rated.close();
  analysis.close();
  await store.close();
});

test('a game whose analysis fails is logged once and not tried again; the next one runs', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  const broken = recordOf('broken', 4);
  // The third placement moved far off the board: the record no longer replays.
  const third = broken.moves.filter((m) => !('discard' in m))[2] as { x: number };
  third.x += 50;
  const records = new Map([
    ['broken', broken],
    ['fine', recordOf('fine')],
  ]);
  const { analysis, rated, lines, stored } = await setup(store, records);
  rated.queue('broken');
  rated.queue('fine');
  await t.waitFor(async () => assert.ok(await stored('fine')), { ...WAIT, timeout: 30_000 });
  assert.equal((await analysis.status('broken'))?.status, 'failed');
  rated.queue('missing'); // a game gone from the store: a warning, and the queue goes on
  rated.queue('fine'); // stored already: not analysed again
  await t.waitFor(() => assert.ok(lines.some((l) => l.msg === 'rated game not analysed automatically' && l.gameId === 'missing')), WAIT);
  assert.equal(lines.filter((l) => l.msg === 'game analysis failed').length, 1);
  assert.equal(lines.filter((l) => l.msg === 'game analysis queued' && l.gameId === 'fine').length, 1);
  rated.close();
  analysis.close();
  await store.close();
});

test('when people’s analyses fill the service’s queue, the automatic one waits its turn', async (t) => {
  const store = new SqliteStore({ path: ':memory:' });
  const records = new Map(['asked', 'auto'].map((id) => [id, recordOf(id, 3)]));
  const { analysis, rated, stored } = await setup(store, records, 1);
  analysis.request('asked', records.get('asked')!);
  rated.queue('auto');
  await t.waitFor(async () => assert.deepEqual([await stored('asked'), await stored('auto')], [true, true]), { ...WAIT, timeout: 30_000 });
  rated.close();
  analysis.close();
  await store.close();
});
