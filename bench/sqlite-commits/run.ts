// The SQLite store's commit per move as the main thread sees it: how long each appendMoves call
// holds the event loop, over many games at a steady rate, for one store module in each of its
// checkpoint modes. The tail is the WAL checkpoint: SQLite's own runs inside the commit that
// fills the WAL; the store's checkpoint thread takes it off the loop. Pass another checkout's
// storage/sqlite/games.ts (e.g. one exported with `git archive`) to compare with an older store.
//
//   node bench/sqlite-commits/run.ts [--store=server/storage/sqlite/games.ts] [--games=200] [--commits=12000] [--rate=400] [--modes=inline,thread,none]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { legalPlacements, newGame, playMove, tileName } from '../../bot-engine/game.ts';
import type { RecordMove } from '../../bot-engine/record.ts';
import type { GameStore } from '../../server/games/store.ts';
import { machine, machineLine } from '../lib/proc.ts';
import { benchSetup } from '../lib/stored-game.ts';
import { round, summarize } from '../lib/stats.ts';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'server/storage/sqlite/games.ts' },
    games: { type: 'string', default: '200' },
    commits: { type: 'string', default: '12000' },
    rate: { type: 'string', default: '400' },
    modes: { type: 'string', default: 'inline,thread' },
  },
});
const games = Number(values.games);
const commits = Number(values.commits);
const rate = Number(values.rate);
const { SqliteStore } = (await import(pathToFileURL(resolve(values.store)).href)) as {
  SqliteStore: new (o: { path: string; walCheckpoints?: string }) => GameStore & { checkpoints?: number };
};

// Real moves of a real game (the first legal placement each turn): rows the size a server writes.
const moves: RecordMove[] = [];
for (const state = newGame({ players: 2, seed: 'bench' }); !state.finished; ) {
  const tile = tileName(state.currentTile);
  const [p] = legalPlacements(state);
  const outcome = playMove(state, { x: p.x, y: p.y, rotation: p.rotation, meeple: null });
  if ('error' in outcome) throw new Error(outcome.error);
  moves.push({ tile, ...outcome.move }, ...outcome.discarded.map((d) => ({ discard: d })));
}

async function run(mode: string) {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-bench-'));
  const store = new SqliteStore({ path: join(dir, 'games.db'), walCheckpoints: mode === 'none' ? 'inline' : mode });
  // The floor: no checkpoint at all during the run (the WAL only grows), what is left is the
  // commit itself and the machine's noise.
  if (mode === 'none') (store as unknown as { db: { exec(sql: string): void } }).db.exec('PRAGMA wal_autocheckpoint = 0');
  for (let g = 0; g < games; g++)
    await store.create(benchSetup(`bench-${g}`), [
      { name: `Player ${g}`, tokenHash: 'ab'.repeat(32) },
      { name: 'Bot (hard)', tokenHash: null },
    ]);
  const took: number[] = [];
  const started = performance.now();
  // Paced: `rate` commits a second in 10 ms slices, one move to each game in turn.
  const perSlice = Math.max(1, Math.round(rate / 100));
  let n = 0;
  while (n < commits) {
    const due = started + (n / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    for (let k = 0; k < perSlice && n < commits; k++, n++) {
      const t = performance.now();
      await store.appendMoves(`bench-${n % games}`, [moves[Math.floor(n / games) % moves.length]], null);
      took.push((performance.now() - t) * 1000);
    }
  }
  // Read after close: the thread has answered every checkpoint asked of it by then.
  await store.close();
  const checkpoints = store.checkpoints ?? 0;
  rmSync(dir, { recursive: true, force: true });
  const s = summarize(took, 0);
  const over = (ms: number) => took.filter((us) => us >= ms * 1000).length;
  return {
    mode,
    commits: took.length,
    meanUs: s.mean,
    p50Us: s.p50,
    p99Us: s.p99,
    p999Us: round([...took].sort((a, b) => a - b)[Math.ceil(took.length * 0.999) - 1], 0),
    maxMs: round(s.max / 1000, 2),
    over1ms: over(1),
    over2ms: over(2),
    checkpointsByThread: checkpoints,
  };
}

const before = machine();
const results = [];
for (const mode of values.modes.split(',')) results.push(await run(mode));
console.log(`store ${values.store}; ${games} games, ${commits} commits at ${rate}/s`);
console.table(results);
console.log(machineLine(before, machine()));
