// Web Push's rows in the games' SQLite database, through the store's own transactions (games.ts).

import type { DatabaseSync } from 'node:sqlite';
import type { SqliteStore } from './games.ts';
import type { PushClaim, PushDevice, PushStore, VapidKeys } from '../../push/store.ts';

type Row = Record<string, unknown>;

export class SqlitePush implements PushStore {
  private readonly store: SqliteStore;

  constructor(store: SqliteStore) {
    this.store = store;
  }

  private get db(): DatabaseSync {
    return this.store.database;
  }

  async vapidKeys(made: VapidKeys): Promise<VapidKeys> {
    return this.store.write((db) => {
      db.prepare('INSERT INTO vapid_keys (id, public_key, private_key, created_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING').run(made.publicKey, made.privateKey, made.createdAt);
      return toKeys(db.prepare('SELECT * FROM vapid_keys WHERE id = 1').get() as Row);
    });
  }

  async saveDevice(d: PushDevice): Promise<PushDevice> {
    return this.store.write((db) => {
      const row = db
        .prepare(
          `INSERT INTO push_devices (id, player_id, endpoint, p256dh, auth, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (endpoint) DO UPDATE SET player_id = excluded.player_id, p256dh = excluded.p256dh, auth = excluded.auth, label = excluded.label
           RETURNING *`,
        )
        .get(d.id, d.playerId, d.endpoint, d.p256dh, d.auth, d.label, d.createdAt) as Row;
      return toDevice(row);
    });
  }

  async devices(playerId: string): Promise<PushDevice[]> {
    return (this.db.prepare('SELECT * FROM push_devices WHERE player_id = ? ORDER BY created_at, id').all(playerId) as Row[]).map(toDevice);
  }

  async removeDevice(playerId: string, id: string): Promise<boolean> {
    return this.store.write((db) => Number(db.prepare('DELETE FROM push_devices WHERE id = ? AND player_id = ?').run(id, playerId).changes) > 0);
  }

  async dropEndpoint(endpoint: string): Promise<void> {
    await this.store.write((db) => db.prepare('DELETE FROM push_devices WHERE endpoint = ?').run(endpoint));
  }

  async claim(claims: PushClaim[], at: number): Promise<PushClaim[]> {
    if (claims.length === 0) return [];
    return this.store.write((db) => {
      const insert = db.prepare('INSERT INTO push_claims (player_id, game_id, turn, kind, claimed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING');
      return claims.filter((c) => Number(insert.run(c.playerId, c.gameId, c.turn, c.kind, at).changes) > 0);
    });
  }

  async pruneClaims(before: number): Promise<number> {
    return this.store.write((db) => Number(db.prepare('DELETE FROM push_claims WHERE claimed_at < ?').run(before).changes));
  }
}

function toKeys(row: Row): VapidKeys {
  return { publicKey: row.public_key as string, privateKey: row.private_key as string, createdAt: row.created_at as string };
}

function toDevice(row: Row): PushDevice {
  return {
    id: row.id as string,
    playerId: row.player_id as string,
    endpoint: row.endpoint as string,
    p256dh: row.p256dh as string,
    auth: row.auth as string,
    label: row.label as string,
    createdAt: row.created_at as string,
  };
}
