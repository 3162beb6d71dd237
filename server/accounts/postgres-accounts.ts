// Accounts in the games' PostgreSQL database, through the store's own transactions
// (postgres-store.ts). The unique index on name_key settles two players racing for one name.

import type pg from 'pg';
import type { PostgresStore } from '../games/postgres-store.ts';
import type { SeatHolder } from '../games/store.ts';
import { NameTakenError, nameKey } from './names.ts';
import type { AccountStore, Challenge, Passkey, Player, SessionRow } from './store.ts';
import { withoutPlayer } from '../games/seats.ts';

// biome-ignore lint/suspicious/noExplicitAny: rows as pg returns them
type Row = Record<string, any>;

export class PostgresAccounts implements AccountStore {
  private readonly store: PostgresStore;

  constructor(store: PostgresStore) {
    this.store = store;
  }

  async createPlayer(player: Player, session: SessionRow): Promise<void> {
    await this.store.write(async (c) => {
      await namedWrite(() => c.query('INSERT INTO players (id, name, name_key, created_at) VALUES ($1, $2, $3, $4)', [player.id, player.name, nameKey(player.name), player.createdAt]));
      await c.query('INSERT INTO sessions (id_hash, player_id, expires_at) VALUES ($1, $2, $3)', [session.hash, session.playerId, session.expiresAt]);
    });
  }

  async playerBySession(hash: string, now: number): Promise<Player | undefined> {
    const { rows } = await this.store.query(
      'SELECT p.id, p.name, p.created_at FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.id_hash = $1 AND s.expires_at > $2 AND p.name_key IS NOT NULL',
      [hash, now],
    );
    return rows[0] && toPlayer(rows[0]);
  }

  async player(id: string): Promise<Player | undefined> {
    const { rows } = await this.store.query('SELECT id, name, created_at FROM players WHERE id = $1 AND name_key IS NOT NULL', [id]);
    return rows[0] && toPlayer(rows[0]);
  }

  async nameHeld(name: string): Promise<boolean> {
    const { rows } = await this.store.query('SELECT 1 FROM players WHERE name_key = $1', [nameKey(name)]);
    return rows.length > 0;
  }

  async rename(playerId: string, name: string): Promise<boolean> {
    return this.store.write(async (c) => {
      const result = await namedWrite(() => c.query('UPDATE players SET name = $1, name_key = $2 WHERE id = $3 AND name_key IS NOT NULL', [name, nameKey(name), playerId]));
      return (result.rowCount ?? 0) > 0;
    });
  }

  async deletePlayer(playerId: string, replacement: string, at: string): Promise<boolean> {
    return this.store.write(async (c) => {
      const gone = await c.query('UPDATE players SET name = $1, name_key = NULL, deleted_at = $2 WHERE id = $3 AND name_key IS NOT NULL', [replacement, at, playerId]);
      if ((gone.rowCount ?? 0) === 0) return false;
      await c.query('DELETE FROM sessions WHERE player_id = $1', [playerId]);
      await c.query('DELETE FROM passkeys WHERE player_id = $1', [playerId]);
      const { rows } = await c.query<Row>('SELECT id, holders FROM games WHERE holders @> $1::jsonb FOR UPDATE', [JSON.stringify([{ playerId }])]);
      for (const g of rows) {
        const holders = withoutPlayer(g.holders as (SeatHolder | null)[], playerId, replacement);
        if (!holders) continue;
        await c.query('UPDATE games SET holders = $1 WHERE id = $2', [JSON.stringify(holders), g.id]);
        for (const [seat, h] of holders.entries()) if (h) await c.query('UPDATE seat_names SET name = $1 WHERE game_id = $2 AND seat = $3', [h.name, g.id, seat]);
      }
      return true;
    });
  }

  async endSession(hash: string): Promise<void> {
    await this.store.write((c) => c.query('DELETE FROM sessions WHERE id_hash = $1', [hash]));
  }

  async putChallenge(ch: Challenge): Promise<void> {
    await this.store.write(async (c) => {
      // Expired challenges go with each new one: the table stays as small as the traffic.
      await c.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [Date.now()]);
      await c.query('INSERT INTO webauthn_challenges (challenge, player_id, expires_at) VALUES ($1, $2, $3)', [ch.challenge, ch.playerId, ch.expiresAt]);
    });
  }

  async takeChallenge(challenge: string, now: number): Promise<Challenge | undefined> {
    const row = await this.store.write(async (c) => (await c.query<Row>('DELETE FROM webauthn_challenges WHERE challenge = $1 RETURNING *', [challenge])).rows[0]);
    if (!row || Number(row.expires_at) <= now) return undefined;
    return { challenge, playerId: row.player_id ?? null, expiresAt: Number(row.expires_at) };
  }

  async addPasskey(k: Passkey): Promise<void> {
    await this.store.write((c) =>
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

  async signIn(passkeyId: string, counter: number, session: SessionRow, replaces: string | null): Promise<void> {
    await this.store.write(async (c) => {
      if (((await c.query('UPDATE passkeys SET counter = $1 WHERE id = $2', [counter, passkeyId])).rowCount ?? 0) === 0) throw new Error(`no passkey ${passkeyId}`);
      if (replaces) await c.query('DELETE FROM sessions WHERE id_hash = $1', [replaces]);
      await c.query('INSERT INTO sessions (id_hash, player_id, expires_at) VALUES ($1, $2, $3)', [session.hash, session.playerId, session.expiresAt]);
    });
  }
}

/** A write that sets a name: the unique key's violation is `name_taken`. */
async function namedWrite(write: () => Promise<pg.QueryResult>): Promise<pg.QueryResult> {
  try {
    return await write();
  } catch (e) {
    if ((e as { code?: string; constraint?: string }).code === '23505' && (e as { constraint?: string }).constraint === 'players_name_key_key') throw new NameTakenError();
    throw e;
  }
}

function toPlayer(row: Row): Player {
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

function toPasskey(row: Row): Passkey {
  return { id: row.id, playerId: row.player_id, publicKey: row.public_key, counter: Number(row.counter), transports: row.transports, createdAt: row.created_at };
}
