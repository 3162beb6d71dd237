// Accounts in memory, beside a MemoryStore (tests): the contract (store.ts) with no database.

import { isDamaged, type GameStore } from '../games/store.ts';
import { NameTakenError, nameKey } from './names.ts';
import type { AccountStore, Challenge, Passkey, Player, SessionRow } from './store.ts';
import { withoutPlayer } from '../games/seats.ts';

export class MemoryAccounts implements AccountStore {
  private readonly players = new Map<string, Player & { key: string | null }>();
  private readonly sessions = new Map<string, SessionRow>();
  private readonly challenges = new Map<string, Challenge>();
  private readonly keys = new Map<string, Passkey>();

  private readonly games: GameStore;

  constructor(games: GameStore) {
    this.games = games;
  }

  async createPlayer(player: Player, session: SessionRow): Promise<void> {
    const key = this.freeKey(player.name, null);
    this.players.set(player.id, { ...player, key });
    this.sessions.set(session.hash, { ...session });
  }

  async playerBySession(hash: string, now: number): Promise<Player | undefined> {
    const session = this.sessions.get(hash);
    return session && session.expiresAt > now ? this.player(session.playerId) : undefined;
  }

  async player(id: string): Promise<Player | undefined> {
    const p = this.players.get(id);
    return p?.key ? { id: p.id, name: p.name, createdAt: p.createdAt } : undefined;
  }

  async nameHeld(name: string): Promise<boolean> {
    const key = nameKey(name);
    for (const p of this.players.values()) if (p.key === key) return true;
    return false;
  }

  async rename(playerId: string, name: string): Promise<boolean> {
    const p = this.players.get(playerId);
    if (!p?.key) return false;
    p.key = this.freeKey(name, playerId);
    p.name = name;
    return true;
  }

  async deletePlayer(playerId: string, replacement: string): Promise<boolean> {
    const p = this.players.get(playerId);
    if (!p?.key) return false;
    for (const finished of [false, true]) {
      let before: string | undefined;
      do {
        const page = await this.games.list({ finished, playerId, limit: 100, ...(before ? { before } : {}) });
        for (const g of page.games) {
          if (isDamaged(g)) continue;
          await this.games.update(g.setup.id, { name: 'delete_player', apply: (stored) => ({ holders: withoutPlayer(stored.holders, playerId, replacement) ?? stored.holders }) });
        }
        before = page.next ?? undefined;
      } while (before);
    }
    p.key = null;
    p.name = replacement;
    for (const [hash, s] of this.sessions) if (s.playerId === playerId) this.sessions.delete(hash);
    for (const [id, k] of this.keys) if (k.playerId === playerId) this.keys.delete(id);
    return true;
  }

  async endSession(hash: string): Promise<void> {
    this.sessions.delete(hash);
  }

  async putChallenge(challenge: Challenge): Promise<void> {
    this.challenges.set(challenge.challenge, { ...challenge });
  }

  async takeChallenge(challenge: string, now: number): Promise<Challenge | undefined> {
    const c = this.challenges.get(challenge);
    this.challenges.delete(challenge);
    return c && c.expiresAt > now ? c : undefined;
  }

  async addPasskey(passkey: Passkey): Promise<void> {
    if (this.keys.has(passkey.id)) throw new Error(`passkey ${passkey.id} already exists`);
    this.keys.set(passkey.id, structuredClone(passkey));
  }

  async passkey(id: string): Promise<Passkey | undefined> {
    const k = this.keys.get(id);
    return k && structuredClone(k);
  }

  async passkeys(playerId: string): Promise<Passkey[]> {
    return [...this.keys.values()].filter((k) => k.playerId === playerId).map((k) => structuredClone(k));
  }

  async signIn(passkeyId: string, counter: number, session: SessionRow, replaces: string | null): Promise<void> {
    const k = this.keys.get(passkeyId);
    if (!k) throw new Error(`no passkey ${passkeyId}`);
    k.counter = counter;
    if (replaces) this.sessions.delete(replaces);
    this.sessions.set(session.hash, { ...session });
  }

  private freeKey(name: string, self: string | null): string {
    const key = nameKey(name);
    for (const p of this.players.values()) if (p.key === key && p.id !== self) throw new NameTakenError();
    return key;
  }
}
