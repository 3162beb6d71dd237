// Web Push's rows in the games' PostgreSQL database, through the store's own transactions
// (games.ts). The claims' primary key settles two instances sending the same notification: the
// one whose insert lands sends it.

import type { PostgresStore } from './games.ts';
import type { PushClaim, PushDevice, PushStore, VapidKeys } from '../../push/store.ts';

// biome-ignore lint/suspicious/noExplicitAny: rows as pg returns them
type Row = Record<string, any>;

export class PostgresPush implements PushStore {
  private readonly store: PostgresStore;

  constructor(store: PostgresStore) {
    this.store = store;
  }

  async vapidKeys(made: VapidKeys): Promise<VapidKeys> {
    return this.store.write(async (c) => {
      await c.query('INSERT INTO vapid_keys (id, public_key, private_key, created_at) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING', [made.publicKey, made.privateKey, made.createdAt]);
      const { rows } = await c.query('SELECT * FROM vapid_keys WHERE id = 1');
      return toKeys(rows[0]);
    });
  }

  async saveDevice(d: PushDevice): Promise<PushDevice> {
    return this.store.write(async (c) => {
      const { rows } = await c.query(
        `INSERT INTO push_devices (id, player_id, endpoint, p256dh, auth, label, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (endpoint) DO UPDATE SET player_id = EXCLUDED.player_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, label = EXCLUDED.label
         RETURNING *`,
        [d.id, d.playerId, d.endpoint, d.p256dh, d.auth, d.label, d.createdAt],
      );
      return toDevice(rows[0]);
    });
  }

  async devices(playerId: string): Promise<PushDevice[]> {
    const { rows } = await this.store.query('SELECT * FROM push_devices WHERE player_id = $1 ORDER BY created_at, id', [playerId]);
    return rows.map(toDevice);
  }

  async removeDevice(playerId: string, id: string): Promise<boolean> {
    return this.store.write(async (c) => ((await c.query('DELETE FROM push_devices WHERE id = $1 AND player_id = $2', [id, playerId])).rowCount ?? 0) > 0);
  }

  async dropEndpoint(endpoint: string): Promise<void> {
    await this.store.write((c) => c.query('DELETE FROM push_devices WHERE endpoint = $1', [endpoint]));
  }

  async claim(claims: PushClaim[], at: number): Promise<PushClaim[]> {
    if (claims.length === 0) return [];
    return this.store.write(async (c) => {
      const won: PushClaim[] = [];
      for (const claim of claims) {
        const { rowCount } = await c.query('INSERT INTO push_claims (player_id, game_id, turn, kind, claimed_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
          claim.playerId,
          claim.gameId,
          claim.turn,
          claim.kind,
          at,
        ]);
        if ((rowCount ?? 0) > 0) won.push(claim);
      }
      return won;
    });
  }

  async pruneClaims(before: number): Promise<number> {
    return this.store.write(async (c) => (await c.query('DELETE FROM push_claims WHERE claimed_at < $1', [before])).rowCount ?? 0);
  }
}

function toKeys(row: Row): VapidKeys {
  return { publicKey: row.public_key, privateKey: row.private_key, createdAt: row.created_at };
}

function toDevice(row: Row): PushDevice {
  return { id: row.id, playerId: row.player_id, endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth, label: row.label, createdAt: row.created_at };
}
