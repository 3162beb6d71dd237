// What storing "a person was last seen" costs on PostgreSQL: markSeen through the store's generic
// update (a transaction that locks the row, reads it, writes the patch) against the single
// UPDATE it replaced, on a private PostgreSQL started here. Each mode times `calls` marks one
// after another (latency), then as many again `parallel` at a time (what the pool sustains).
//
//   node bench/postgres-seen/run.ts [--games=100] [--calls=3000] [--parallel=8]

import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgres } from '../../support/postgres.ts';
import { machine, machineLine } from '../lib/proc.ts';
import { benchSetup } from '../lib/stored-game.ts';
import { summarize } from '../lib/stats.ts';
import { PostgresStore } from '../../server/storage/postgres/games.ts';
import { markSeen } from '../../server/games/store-operations.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '100' },
    calls: { type: 'string', default: '3000' },
    parallel: { type: 'string', default: '8' },
  },
});
const games = Number(values.games);
const calls = Number(values.calls);
const parallel = Number(values.parallel);

/** The statement markSeen was before the store's generic update: atomic on its own. */
const SINGLE_UPDATE = 'UPDATE games SET last_person_at = greatest(coalesce(last_person_at, 0), $2) WHERE id = $1 AND NOT finished';

async function timed(mark: (id: string, at: number) => Promise<unknown>) {
  const one: number[] = [];
  for (let n = 0; n < calls; n++) {
    const t = performance.now();
    await mark(`seen-${n % games}`, Date.now());
    one.push((performance.now() - t) * 1000);
  }
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < calls) await mark(`seen-${next++ % games}`, Date.now());
    }),
  );
  const perSecond = Math.round(calls / ((performance.now() - started) / 1000));
  const s = summarize(one, 0);
  return { p50Us: s.p50, p99Us: s.p99, meanUs: s.mean, [`marks/s at ${parallel}`]: perSecond };
}

const postgres = await startPostgres();
try {
  const url = await postgres.database('seen');
  const store = await PostgresStore.connect({ url, instance: 'bench', poolSize: parallel });
  for (let g = 0; g < games; g++) await store.create(benchSetup(`seen-${g}`), [{ name: `Player ${g}`, tokenHash: null }, null]);
  const pool = new pg.Pool({ connectionString: url, max: parallel });
  const before = machine();
  const results: Record<string, unknown>[] = [];
  // Twice each, alternating: the first pass warms the caches and the planner.
  for (const round of [1, 2]) {
    results.push({ mode: 'locked (store.update)', round, ...(await timed((id, at) => markSeen(store, id, at))) });
    results.push({ mode: 'single UPDATE', round, ...(await timed((id, at) => pool.query(SINGLE_UPDATE, [id, at]))) });
  }
  console.log(`${games} games, ${calls} marks a mode and pass, ${parallel} connections`);
  console.table(results);
  console.log(machineLine(before, machine()));
  await pool.end();
  await store.close();
} finally {
  await postgres.stop();
}
