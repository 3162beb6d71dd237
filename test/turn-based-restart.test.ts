// Turn-based deadlines across the real server process (dist/server/main.js): a restart and a
// SIGKILL between a deadline and its move lose nothing and play nothing twice. The deadlines are
// moved into the past in the SQLite file while the server is down (the clock of a row is its
// stored last activity), then the server boots and sweeps.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import test from 'node:test';
import { startServer } from '../support/server.ts';
import { replayRecord } from '../bot-engine/record.ts';

const DAY = 86_400_000;

async function post(url: string, body: unknown): Promise<any> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(url).origin }, body: JSON.stringify(body) });
  const answer = await r.json();
  assert.ok(r.status < 300, `${url}: ${r.status} ${JSON.stringify(answer)}`);
  return answer;
}

function rowOf(file: string, id: string): { moves: any[]; marks: any; players: string[]; seed: string } {
  const db = new DatabaseSync(file);
  try {
    const game = db.prepare('SELECT setup, holders, deadline_marks FROM games WHERE id = ?').get(id) as Record<string, string>;
    const moves = (db.prepare('SELECT move FROM moves WHERE game_id = ? ORDER BY seq').all(id) as Record<string, string>[]).map((m) => JSON.parse(m.move));
    const players = JSON.parse(game.holders).map((h: { name: string }) => h.name);
    return { moves, marks: game.deadline_marks ? JSON.parse(game.deadline_marks) : null, players, seed: JSON.parse(game.setup).seed };
  } finally {
    db.close();
  }
}

/** Moves the game's last activity back so its deadline has passed (the server is down). */
function passDeadline(file: string, id: string, days: number): void {
  const db = new DatabaseSync(file);
  db.prepare('UPDATE games SET last_activity_at = last_activity_at - ? WHERE id = ?').run(days * DAY + 60_000, id);
  db.close();
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('real server: a missed move counted before a crash is played once after it; a SIGKILL right after the boot sweep repeats nothing', { timeout: 180_000 }, async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'tessera-turn-restart-')), 'data');
  const file = join(dataDir, 'tessera.db');
  // A short open-seat expiry makes the sweep run every second (a seated turn-based game never expires).
  const env = { TESSERA_DATA_DIR: dataDir, TESSERA_BOT_WORKERS: '1', TESSERA_EXPIRE_OPEN_SEAT_SECONDS: '4' };
  let server = await startServer(env);
  const game = await post(`${server.url}/api/games`, { seats: [{ kind: 'person' }, { kind: 'person' }], pace: { kind: 'turnBased', moveDays: 1 } });
  await post(`${server.url}/api/games/${game.id}/seats`, { name: 'Ann' });
  await post(`${server.url}/api/games/${game.id}/seats`, { name: 'Ben' });
  await server.kill('SIGKILL');

  // 1. Ann's deadline passed and her miss was counted, then the server died before the move.
  passDeadline(file, game.id, 1);
  const db = new DatabaseSync(file);
  db.prepare('UPDATE games SET deadline_marks = ? WHERE id = ?').run(JSON.stringify({ missed: [1, 0], missedTurn: 0, remindedTurn: -1, droppedAt: [null, null] }), game.id);
  db.close();
  server = await startServer(env);
  await until(() => rowOf(file, game.id).moves.length > 0, "Ann's missed move");
  await server.stop();
  let row = rowOf(file, game.id);
  assert.deepEqual(row.marks.missed, [1, 0], 'the miss counted before the crash is not counted again');
  const placements = (moves: any[]) => moves.filter((m) => !('discard' in m)).length;
  assert.equal(placements(row.moves), 1, 'one move played for it');

  // 2. Ben's deadline passes; the server is SIGKILLed as soon as it is ready (the boot sweep has
  // run: the miss is counted, the move stored or not yet), then starts again.
  passDeadline(file, game.id, 1);
  server = await startServer(env);
  await server.kill('SIGKILL');
  server = await startServer(env);
  await until(() => placements(rowOf(file, game.id).moves) >= 2, "Ben's missed move");
  // A few more sweeps: nothing else is due.
  await new Promise((r) => setTimeout(r, 3000));
  await server.stop();
  row = rowOf(file, game.id);
  assert.deepEqual(row.marks.missed, [1, 1], "Ben's miss counted once");
  assert.equal(placements(row.moves), 2, 'one move for each missed deadline, none twice');
  const { state } = replayRecord({ format: 'tessera-game/1', players: row.players, seed: row.seed, moves: row.moves, final: false });
  assert.equal(state.currentPlayer, 0, "the record replays to Ann's turn");
});
