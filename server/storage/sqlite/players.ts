// Players in the games' SQLite database, through the store's own transactions (games.ts).

import type { DatabaseSync } from 'node:sqlite';
import type { SqliteStore } from './games.ts';
import type { GameSetup, SeatHolder } from '../../games/store.ts';
import { NameTakenError, heldKey } from '../../players/names.ts';
import { asRefusal } from '../../players/refusals.ts';
import { type PlayerStore, type Challenge, type Passkey, type Player, type SessionPlayer, type SessionRow, SWEEP_BATCH, type SweepCount } from '../../players/store.ts';
import { setupWithoutKept, withoutPlayer } from '../../games/seats.ts';

type Row = Record<string, unknown>;

export class SqlitePlayers implements PlayerStore {
  private readonly store: SqliteStore;

  constructor(store: SqliteStore) {
    this.store = store;
  }

  private get db(): DatabaseSync {
    return this.store.database;
  }

  /** A transaction of the store's; a constraint a request met comes back as its refusal. */
  private async write<T>(fn: (db: DatabaseSync) => T): Promise<T> {
    try {
      return await this.store.write(fn);
    } catch (e) {
      throw asRefusal(e);
    }
  }

  async createPlayer(player: Player, session: SessionRow): Promise<void> {
    await this.write((db) => {
      const key = freeKey(db, player.name, null);
      db.prepare('INSERT INTO players (id, name, name_key, created_at, seen_at) VALUES (?, ?, ?, ?, ?)').run(player.id, player.name, key, player.createdAt, Date.parse(player.createdAt));
      db.prepare('INSERT INTO sessions (id_hash, player_id, expires_at) VALUES (?, ?, ?)').run(session.hash, session.playerId, session.expiresAt);
    });
  }

  async playerBySession(hash: string, now: number): Promise<SessionPlayer | undefined> {
    const row = this.db
      .prepare('SELECT p.id, p.name, p.created_at, p.seen_at FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.id_hash = ? AND s.expires_at > ? AND p.deleted_at IS NULL')
      .get(hash, now) as Row | undefined;
    return row && { ...toPlayer(row), seenAt: Number(row.seen_at) };
  }

  async seen(playerId: string, at: number): Promise<void> {
    await this.store.write((db) => db.prepare('UPDATE players SET seen_at = max(seen_at, ?) WHERE id = ?').run(at, playerId));
  }

  async sweep(now: number, idleBefore: number): Promise<SweepCount> {
    return this.store.write((db) => {
      const sessions = Number(db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now).changes);
      db.prepare('DELETE FROM webauthn_challenges WHERE expires_at <= ?').run(now);
      // A guest holding a seat stays (game_players: the seats each player holds).
      const idle = db
        .prepare(
          `SELECT id FROM players p WHERE deleted_at IS NULL AND seen_at < ?
             AND NOT EXISTS (SELECT 1 FROM passkeys k WHERE k.player_id = p.id)
             AND NOT EXISTS (SELECT 1 FROM game_players s WHERE s.player_id = p.id AND s.kept = 0)
           ORDER BY seen_at LIMIT ?`,
        )
        .all(idleBefore, SWEEP_BATCH) as Row[];
      const endSessions = db.prepare('DELETE FROM sessions WHERE player_id = ?');
      const remove = db.prepare('DELETE FROM players WHERE id = ?');
      for (const { id } of idle) {
        endSessions.run(id as string);
        remove.run(id as string);
      }
      return { sessions, guests: idle.length };
    });
  }

  async player(id: string): Promise<Player | undefined> {
    const row = this.db.prepare('SELECT id, name, created_at FROM players WHERE id = ? AND deleted_at IS NULL').get(id) as Row | undefined;
    return row && toPlayer(row);
  }

  async nameHeld(name: string): Promise<boolean> {
    const key = heldKey(name);
    return key !== null && this.db.prepare('SELECT 1 FROM players WHERE name_key = ?').get(key) !== undefined;
  }

  async playerByName(name: string): Promise<Player | undefined> {
    const key = heldKey(name);
    const row = key === null ? undefined : (this.db.prepare('SELECT id FROM players WHERE name_key = ? AND deleted_at IS NULL').get(key) as { id: string } | undefined);
    return row && this.player(row.id);
  }

  async rename(playerId: string, name: string): Promise<boolean> {
    return this.write((db) => {
      const key = freeKey(db, name, playerId);
      return Number(db.prepare('UPDATE players SET name = ?, name_key = ? WHERE id = ? AND deleted_at IS NULL').run(name, key, playerId).changes) > 0;
    });
  }

  async deletePlayer(playerId: string, replacement: string, at: string): Promise<boolean> {
    return this.write((db) => {
      const gone = db.prepare('UPDATE players SET name = ?, name_key = NULL, deleted_at = ? WHERE id = ? AND deleted_at IS NULL').run(replacement, at, playerId);
      if (Number(gone.changes) === 0) return false;
      db.prepare('DELETE FROM sessions WHERE player_id = ?').run(playerId);
      db.prepare('DELETE FROM passkeys WHERE player_id = ?').run(playerId);
      db.prepare('DELETE FROM push_devices WHERE player_id = ?').run(playerId);
      // Their seats renamed and unlinked; the seats kept for them (a challenge) open to anyone,
      // their name gone. The triggers (game-players.ts) keep the index.
      // A column damaged by hand reads as null: it is left as it is.
      const games = db
        .prepare(
          `SELECT id, CASE WHEN json_valid(holders) THEN holders END AS holders, CASE WHEN json_valid(setup) THEN setup END AS setup
             FROM games WHERE id IN (SELECT game_id FROM game_players WHERE player_id = ?)`,
        )
        .all(playerId) as Row[];
      for (const g of games) {
        const id = g.id as string;
        const holders = g.holders === null ? null : withoutPlayer(JSON.parse(g.holders as string) as (SeatHolder | null)[], playerId, replacement);
        if (holders) {
          db.prepare('UPDATE games SET holders = ? WHERE id = ?').run(JSON.stringify(holders), id);
          for (const [seat, h] of holders.entries()) if (h) db.prepare('UPDATE seat_names SET name = ? WHERE game_id = ? AND seat = ?').run(h.name, id, seat);
        }
        const setup = g.setup === null ? null : setupWithoutKept(JSON.parse(g.setup as string) as GameSetup, playerId);
        if (setup) db.prepare('UPDATE games SET setup = ? WHERE id = ?').run(JSON.stringify(setup), id);
      }
      return true;
    });
  }

  async endSession(hash: string): Promise<void> {
    await this.write((db) => db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(hash));
  }

  async putChallenge(c: Challenge): Promise<void> {
    await this.write((db) => {
      // Expired challenges go with each new one: the table stays as small as the traffic.
      db.prepare('DELETE FROM webauthn_challenges WHERE expires_at <= ?').run(Date.now());
      db.prepare('INSERT INTO webauthn_challenges (challenge, player_id, expires_at) VALUES (?, ?, ?)').run(c.challenge, c.playerId, c.expiresAt);
    });
  }

  async takeChallenge(challenge: string, now: number): Promise<Challenge | undefined> {
    const row = await this.write((db) => db.prepare('DELETE FROM webauthn_challenges WHERE challenge = ? RETURNING *').get(challenge) as Row | undefined);
    if (!row || Number(row.expires_at) <= now) return undefined;
    return { challenge, playerId: (row.player_id as string | null) ?? null, expiresAt: Number(row.expires_at) };
  }

  async addPasskey(k: Passkey): Promise<void> {
    await this.write((db) =>
      db
        .prepare('INSERT INTO passkeys (id, player_id, public_key, counter, transports, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(k.id, k.playerId, k.publicKey, k.counter, JSON.stringify(k.transports), k.createdAt),
    );
  }

  async passkey(id: string): Promise<Passkey | undefined> {
    const row = this.db.prepare('SELECT * FROM passkeys WHERE id = ?').get(id) as Row | undefined;
    return row && toPasskey(row);
  }

  async passkeys(playerId: string): Promise<Passkey[]> {
    return (this.db.prepare('SELECT * FROM passkeys WHERE player_id = ? ORDER BY created_at, id').all(playerId) as Row[]).map(toPasskey);
  }

  async signIn(passkeyId: string, counter: number, session: SessionRow, replaces: string | null): Promise<boolean> {
    return this.write((db) => {
      if (Number(db.prepare('UPDATE passkeys SET counter = ? WHERE id = ?').run(counter, passkeyId).changes) === 0) return false;
      if (replaces) db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(replaces);
      db.prepare('UPDATE players SET seen_at = max(seen_at, ?) WHERE id = ?').run(Date.now(), session.playerId);
      db.prepare('INSERT INTO sessions (id_hash, player_id, expires_at) VALUES (?, ?, ?)').run(session.hash, session.playerId, session.expiresAt);
      return true;
    });
  }
}

/** The name's key, if no other player holds it (checked inside the writing transaction); null
 * for a guest's default name. */
function freeKey(db: DatabaseSync, name: string, self: string | null): string | null {
  const key = heldKey(name);
  if (key === null) return null;
  const holder = db.prepare('SELECT id FROM players WHERE name_key = ?').get(key) as Row | undefined;
  if (holder && holder.id !== self) throw new NameTakenError();
  return key;
}

function toPlayer(row: Row): Player {
  return { id: row.id as string, name: row.name as string, createdAt: row.created_at as string };
}

function toPasskey(row: Row): Passkey {
  return {
    id: row.id as string,
    playerId: row.player_id as string,
    publicKey: row.public_key as string,
    counter: Number(row.counter),
    transports: JSON.parse(row.transports as string) as string[],
    createdAt: row.created_at as string,
  };
}
