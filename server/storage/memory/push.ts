// Web Push's rows in memory, beside a MemoryPlayers (tests): the contract (push/store.ts) with no
// database. A deleted player's devices go with them, as the SQL backends' do.

import { claimKey, type PushClaim, type PushDevice, type PushStore, type VapidKeys } from '../../push/store.ts';
import type { PlayerStore } from '../../players/store.ts';

export class MemoryPush implements PushStore {
  private keys: VapidKeys | null = null;
  private readonly byEndpoint = new Map<string, PushDevice>();
  private readonly claims = new Map<string, number>();
  private readonly players: PlayerStore;

  constructor(players: PlayerStore) {
    this.players = players;
  }

  async vapidKeys(made: VapidKeys): Promise<VapidKeys> {
    this.keys ??= { ...made };
    return { ...this.keys };
  }

  async saveDevice(d: PushDevice): Promise<PushDevice> {
    if (!(await this.players.player(d.playerId))) throw new Error(`no player ${d.playerId}`);
    const held = this.byEndpoint.get(d.endpoint);
    const stored = held ? { ...held, playerId: d.playerId, p256dh: d.p256dh, auth: d.auth, label: d.label } : { ...d };
    this.byEndpoint.set(d.endpoint, stored);
    return { ...stored };
  }

  async devices(playerId: string): Promise<PushDevice[]> {
    if (!(await this.players.player(playerId))) return [];
    return [...this.byEndpoint.values()]
      .filter((d) => d.playerId === playerId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((d) => ({ ...d }));
  }

  async removeDevice(playerId: string, id: string): Promise<boolean> {
    for (const d of this.byEndpoint.values()) if (d.id === id && d.playerId === playerId) return this.byEndpoint.delete(d.endpoint);
    return false;
  }

  async dropEndpoint(endpoint: string): Promise<void> {
    this.byEndpoint.delete(endpoint);
  }

  async claim(claims: PushClaim[], at: number): Promise<PushClaim[]> {
    return claims.filter((c) => {
      const key = claimKey(c);
      if (this.claims.has(key)) return false;
      this.claims.set(key, at);
      return true;
    });
  }

  async pruneClaims(before: number): Promise<number> {
    let n = 0;
    for (const [key, at] of this.claims) if (at < before && this.claims.delete(key)) n++;
    return n;
  }
}
