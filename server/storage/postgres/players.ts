// Players in the games' PostgreSQL database, through the store's own transactions
// (games.ts). The unique index on name_key settles two players racing for one name
// (refusals.ts makes it `name_taken`).

import type pg from 'pg';
import type { PostgresStore } from './games.ts';
import type { GameSetup, SeatHolder } from '../../games/store.ts';
import { heldKey } from '../../players/names.ts';
import { asRefusal } from '../../players/refusals.ts';
import { type PlayerStore, type Challenge, type Passkey, type Player, type SessionPlayer, type SessionRow, SWEEP_BATCH, type SweepCount } from '../../players/store.ts';
import { setupWithoutKept, withoutPlayer } from '../../games/seats.ts';

// biome-ignore lint/suspicious/noExplicitAny: rows as pg returns them
type Row = Record<string, any>;

export class PostgresPlayers implements PlayerStore {
  private readonly store: PostgresStore;

  constructor(store: PostgresStore) {
    this.store = store;
  }

  /** A transaction of the store's; a constraint a request met (the unique name key settles two
   * players racing for one name) comes back as its refusal. */
  private async write<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    try {
      return await this.store.write(fn);
    } catch (e) {
      throw asRefusal(e);
    }
  }

  async createPlayer(player: Player, session: SessionRow): Promise<void> {
    await this.write(async (c) => {
      await c.query('INSERT INTO players (id, name, name_key, created_at, seen_at) VALUES ($1, $2, $3, $4, $5)', [
        player.id,
        player.name,
        heldKey(player.name),
        player.createdAt,
        Date.parse(player.createdAt),
      ]);
      await c.query('INSERT INTO sessions (id_hash, player_id, expires_at) VALUES ($1, $2, $3)', [session.hash, session.playerId, session.expiresAt]);
    });
  }

  async playerBySession(hash: string, now: number): Promise<SessionPlayer | undefined> {
    const { rows } = await this.store.query(
      'SELECT p.id, p.name, p.created_at, p.seen_at FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.id_hash = $1 AND s.expires_at > $2 AND p.deleted_at IS NULL',
      [hash, now],
    );
    return rows[0] && { ...toPlayer(rows[0]), seenAt: Number(rows[0].seen_at) };
  }

  async seen(playerId: string, at: number): Promise<void> {
    await this.store.write((c) => c.query('UPDATE players SET seen_at = GREATEST(seen_at, $1) WHERE id = $2', [at, playerId]));
  }

  async sweep(now: number, idleBefore: number): Promise<SweepCount> {
    return this.store.write(async (c) => {
      const sessions = (await c.query('DELETE FROM sessions WHERE expires_at <= $1', [now])).rowCount ?? 0;
      await c.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [now]);
      // A guest holding a seat stays (games_by_holder finds it). The rows are locked and their
      // conditions checked again: a guest seen meanwhile stays.
      const { rows } = await c.query<Row>(
        `SELECT id FROM players p WHERE deleted_at IS NULL AND seen_at < $1
           AND NOT EXISTS (SELECT 1 FROM passkeys k WHERE k.player_id = p.id)
           AND NOT EXISTS (SELECT 1 FROM games g WHERE g.holders @> jsonb_build_array(jsonb_build_object('playerId', p.id)))
         ORDER BY seen_at LIMIT $2 FOR UPDATE OF p SKIP LOCKED`,
        [idleBefore, SWEEP_BATCH],
      );
      const ids = rows.map((r) => r.id as string);
      if (ids.length === 0) return { sessions, guests: 0 };
      await c.query('DELETE FROM sessions WHERE player_id = ANY($1)', [ids]);
      const guests = (await c.query('DELETE FROM players WHERE id = ANY($1)', [ids])).rowCount ?? 0;
      return { sessions, guests };
    });
  }

  async player(id: string): Promise<Player | undefined> {
    const { rows } = await this.store.query('SELECT id, name, created_at FROM players WHERE id = $1 AND deleted_at IS NULL', [id]);
    return rows[0] && toPlayer(rows[0]);
  }

  async nameHeld(name: string): Promise<boolean> {
    const key = heldKey(name);
    if (key === null) return false;
    const { rows } = await this.store.query('SELECT 1 FROM players WHERE name_key = $1', [key]);
    return rows.length > 0;
  }

  async playerByName(name: string): Promise<Player | undefined> {
    const key = heldKey(name);
    if (key === null) return undefined;
    const { rows } = await this.store.query('SELECT id FROM players WHERE name_key = $1 AND deleted_at IS NULL', [key]);
    return rows[0] && this.player(rows[0].id as string);
  }

  async rename(playerId: string, name: string): Promise<boolean> {
    return this.write(async (c) => {
      const result = await c.query('UPDATE players SET name = $1, name_key = $2 WHERE id = $3 AND deleted_at IS NULL', [name, heldKey(name), playerId]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async deletePlayer(playerId: string, replacement: string, at: string): Promise<boolean> {
    return this.write(async (c) => {
      const gone = await c.query('UPDATE players SET name = $1, name_key = NULL, deleted_at = $2 WHERE id = $3 AND deleted_at IS NULL', [replacement, at, playerId]);
      if ((gone.rowCount ?? 0) === 0) return false;
      await c.query('DELETE FROM sessions WHERE player_id = $1', [playerId]);
      await c.query('DELETE FROM passkeys WHERE player_id = $1', [playerId]);
      await c.query('DELETE FROM push_devices WHERE player_id = $1', [playerId]);
      // Their seats renamed and unlinked; the seats kept for them (a challenge) open to anyone,
      // their name gone. The GIN indexes follow the JSON.
      const { rows } = await c.query<Row>(`SELECT id, holders, setup FROM games WHERE holders @> $1::jsonb OR setup -> 'seats' @> $2::jsonb FOR UPDATE`, [
        JSON.stringify([{ playerId }]),
        JSON.stringify([{ player: { id: playerId } }]),
      ]);
      for (const g of rows) {
        const holders = withoutPlayer(g.holders as (SeatHolder | null)[], playerId, replacement);
        if (holders) {
          await c.query('UPDATE games SET holders = $1 WHERE id = $2', [JSON.stringify(holders), g.id]);
          for (const [seat, h] of holders.entries()) if (h) await c.query('UPDATE seat_names SET name = $1 WHERE game_id = $2 AND seat = $3', [h.name, g.id, seat]);
        }
        const setup = setupWithoutKept(g.setup as GameSetup, playerId);
        if (setup) await c.query('UPDATE games SET setup = $1 WHERE id = $2', [JSON.stringify(setup), g.id]);
      }
      return true;
    });
  }

  async endSession(hash: string): Promise<void> {
    await this.write((c) => c.query('DELETE FROM sessions WHERE id_hash = $1', [hash]));
  }

  async putChallenge(ch: Challenge): Promise<void> {
    await this.write(async (c) => {
      // Expired challenges go with each new one: the table stays as small as the traffic.
      await c.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [Date.now()]);
      await c.query('INSERT INTO webauthn_challenges (challenge, player_id, expires_at) VALUES ($1, $2, $3)', [ch.challenge, ch.playerId, ch.expiresAt]);
    });
  }

  async takeChallenge(challenge: string, now: number): Promise<Challenge | undefined> {
    const row = await this.write(async (c) => (await c.query<Row>('DELETE FROM webauthn_challenges WHERE challenge = $1 RETURNING *', [challenge])).rows[0]);
    if (!row || Number(row.expires_at) <= now) return undefined;
    return { challenge, playerId: row.player_id ?? null, expiresAt: Number(row.expires_at) };
  }

  async addPasskey(k: Passkey): Promise<void> {
    await this.write((c) =>
      c.query('INSERT INTO passkeys (id, player_id, public_key, counter, transports, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        k.id,
        k.playerId,
        k.publicKey,
        k.counter,
        JSON.stringify(k.transports),
        k.createdAt,
      ]),
    );
  }

  async passkey(id: string): Promise<Passkey | undefined> {
    const { rows } = await this.store.query('SELECT * FROM passkeys WHERE id = $1', [id]);
    return rows[0] && toPasskey(rows[0]);
  }

  async passkeys(playerId: string): Promise<Passkey[]> {
    return (await this.store.query('SELECT * FROM passkeys WHERE player_id = $1 ORDER BY created_at, id', [playerId])).rows.map(toPasskey);
  }

  async signIn(passkeyId: string, counter: number, session: SessionRow, replaces: string | null): Promise<boolean> {
    return this.write(async (c) => {
      if (((await c.query('UPDATE passkeys SET counter = $1 WHERE id = $2', [counter, passkeyId])).rowCount ?? 0) === 0) return false;
      if (replaces) await c.query('DELETE FROM sessions WHERE id_hash = $1', [replaces]);
      await c.query('UPDATE players SET seen_at = GREATEST(seen_at, $1) WHERE id = $2', [Date.now(), session.playerId]);
      await c.query('INSERT INTO sessions (id_hash, player_id, expires_at) VALUES ($1, $2, $3)', [session.hash, session.playerId, session.expiresAt]);
      return true;
    });
  }
}

function toPlayer(row: Row): Player {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

function toPasskey(row: Row): Passkey {
  return { id: row.id, playerId: row.player_id, publicKey: row.public_key, counter: Number(row.counter), transports: row.transports, createdAt: row.created_at };
}
