// Players in memory, beside a MemoryStore (tests): the contract (store.ts) with no database.

import { isDamaged } from '../../games/store.ts';
import type { MemoryStore } from './games.ts';
import { NameTakenError, heldKey } from '../../players/names.ts';
import { passkeyRefused } from '../../players/refusals.ts';
import { type PlayerStore, type Challenge, type Passkey, type Player, type SessionPlayer, type SessionRow, SWEEP_BATCH, type SweepCount } from '../../players/store.ts';
import { withoutPlayer } from '../../games/seats.ts';

export class MemoryPlayers implements PlayerStore {
  private readonly players = new Map<string, Player & { key: string | null; seenAt: number; deleted: boolean }>();
  private readonly sessions = new Map<string, SessionRow>();
  private readonly challenges = new Map<string, Challenge>();
  private readonly keys = new Map<string, Passkey>();

  private readonly games: MemoryStore;

  constructor(games: MemoryStore) {
    this.games = games;
  }

  async createPlayer(player: Player, session: SessionRow): Promise<void> {
    const key = this.freeKey(player.name, null);
    this.players.set(player.id, { ...player, key, seenAt: Date.parse(player.createdAt), deleted: false });
    this.sessions.set(session.hash, { ...session });
  }

  async playerBySession(hash: string, now: number): Promise<SessionPlayer | undefined> {
    const session = this.sessions.get(hash);
    const p = session && session.expiresAt > now ? this.players.get(session.playerId) : undefined;
    return p && !p.deleted ? { id: p.id, name: p.name, createdAt: p.createdAt, seenAt: p.seenAt } : undefined;
  }

  async seen(playerId: string, at: number): Promise<void> {
    const p = this.players.get(playerId);
    if (p) p.seenAt = Math.max(p.seenAt, at);
  }

  async sweep(now: number, idleBefore: number): Promise<SweepCount> {
    let sessions = 0;
    for (const [hash, s] of this.sessions) if (s.expiresAt <= now && this.sessions.delete(hash)) sessions++;
    for (const [id, c] of this.challenges) if (c.expiresAt <= now) this.challenges.delete(id);
    const withKeys = new Set([...this.keys.values()].map((k) => k.playerId));
    const idle = [...this.players.values()].filter((p) => !p.deleted && p.seenAt < idleBefore && !withKeys.has(p.id)).sort((a, b) => a.seenAt - b.seenAt);
    let guests = 0;
    for (const p of idle) {
      if (guests === SWEEP_BATCH) break;
      if (await this.seated(p.id)) continue;
      this.players.delete(p.id);
      for (const [hash, s] of this.sessions) if (s.playerId === p.id) this.sessions.delete(hash);
      guests++;
    }
    return { sessions, guests };
  }

  async player(id: string): Promise<Player | undefined> {
    const p = this.players.get(id);
    return p && !p.deleted ? { id: p.id, name: p.name, createdAt: p.createdAt } : undefined;
  }

  async nameHeld(name: string): Promise<boolean> {
    const key = heldKey(name);
    if (key === null) return false;
    for (const p of this.players.values()) if (p.key === key) return true;
    return false;
  }

  async playerByName(name: string): Promise<Player | undefined> {
    const key = heldKey(name);
    if (key === null) return undefined;
    for (const [id, p] of this.players) if (p.key === key && !p.deleted) return this.player(id);
    return undefined;
  }

  async rename(playerId: string, name: string): Promise<boolean> {
    const p = this.players.get(playerId);
    if (!p || p.deleted) return false;
    p.key = this.freeKey(name, playerId);
    p.name = name;
    return true;
  }

  async deletePlayer(playerId: string, replacement: string): Promise<boolean> {
    const p = this.players.get(playerId);
    if (!p || p.deleted) return false;
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
    this.games.forgetKept(playerId);
    p.key = null;
    p.deleted = true;
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
    // As the databases' primary key refuses it (refusals.ts).
    if (this.keys.has(passkey.id)) throw passkeyRefused();
    this.keys.set(passkey.id, structuredClone(passkey));
  }

  async passkey(id: string): Promise<Passkey | undefined> {
    const k = this.keys.get(id);
    return k && structuredClone(k);
  }

  async passkeys(playerId: string): Promise<Passkey[]> {
    return [...this.keys.values()].filter((k) => k.playerId === playerId).map((k) => structuredClone(k));
  }

  async signIn(passkeyId: string, counter: number, session: SessionRow, replaces: string | null): Promise<boolean> {
    const k = this.keys.get(passkeyId);
    if (!k) return false;
    k.counter = counter;
    if (replaces) this.sessions.delete(replaces);
    await this.seen(session.playerId, Date.now());
    this.sessions.set(session.hash, { ...session });
    return true;
  }

  /** Whether the player holds a seat in any game. */
  private async seated(playerId: string): Promise<boolean> {
    for (const finished of [false, true]) if ((await this.games.list({ finished, playerId, limit: 1 })).games.length > 0) return true;
    return false;
  }

  private freeKey(name: string, self: string | null): string | null {
    const key = heldKey(name);
    if (key === null) return null;
    for (const p of this.players.values()) if (p.key === key && p.id !== self) throw new NameTakenError();
    return key;
  }
}
