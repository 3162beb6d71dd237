// Players, their sessions and their passkeys: a contract kept in the same database (and
// connection) as the games, so a player's changes commit with the same guarantees and a
// deleted player's seats are renamed (and those kept for them released) in the same transaction. Session ids and challenges are
// secrets the client holds: only a session id's SHA-256 is stored.

import { createHash, randomBytes } from 'node:crypto';

export interface Player {
  id: string;
  name: string;
  createdAt: string;
}

/** A passkey (WebAuthn credential) that signs a player in. */
export interface Passkey {
  /** The credential id, base64url. */
  id: string;
  playerId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** Signature counter last seen (0 for authenticators that keep none). */
  counter: number;
  transports: string[];
  createdAt: string;
}

/** A WebAuthn challenge waiting for its answer: for registration, the player adding a passkey;
 * for sign-in, nobody (the passkey names its player). */
export interface Challenge {
  challenge: string;
  playerId: string | null;
  expiresAt: number;
}

/** A signed-in player, with when they were last seen (ms since the epoch; see `seen`). */
export interface SessionPlayer extends Player {
  seenAt: number;
}

/** What one sweep removed. */
export interface SweepCount {
  sessions: number;
  guests: number;
}

/** Idle guests a sweep removes at most in one transaction (see PlayerStore.sweep). */
export const SWEEP_BATCH = 1000;

export interface PlayerStore {
  /** A new (guest) player and its first session, in one transaction, seen at its `createdAt`;
   * `name_taken` when the name's key is held (a guest's default name holds none: names.ts). */
  createPlayer(player: Player, session: SessionRow): Promise<void>;
  /** The player a live session belongs to. */
  playerBySession(sessionHash: string, now: number): Promise<SessionPlayer | undefined>;
  /** The player was seen (signed in) at `at`: what keeps an idle guest from the sweep. */
  seen(playerId: string, at: number): Promise<void>;
  /** Removes sessions expired by `now`, and up to SWEEP_BATCH guests (players without a passkey)
   * who hold no seat in any game and were last seen before `idleBefore`, with their sessions, in
   * one transaction. Passkey players, deleted players' seats and games are untouched. */
  sweep(now: number, idleBefore: number): Promise<SweepCount>;
  player(id: string): Promise<Player | undefined>;
  /** Whether a player (not a deleted one) holds the name's key: a name that looks the same. */
  nameHeld(name: string): Promise<boolean>;
  /** The player (not a deleted one) who holds the name's key (a challenge by name), or undefined. */
  playerByName(name: string): Promise<Player | undefined>;
  /** `name_taken` when another player holds the name's key; false: no such player. */
  rename(playerId: string, name: string): Promise<boolean>;
  /** Sessions and passkeys gone, the name freed, the player's seats renamed `replacement` (and no
   * longer theirs), and every seat kept for them (a challenge) kept no more: an ordinary open seat
   * where not taken, their name and id gone from every game's setup; in one transaction; false:
   * no such player. */
  deletePlayer(playerId: string, replacement: string, at: string): Promise<boolean>;
  endSession(sessionHash: string): Promise<void>;
  putChallenge(challenge: Challenge): Promise<void>;
  /** Takes a challenge once (a second take finds nothing), if it has not expired. */
  takeChallenge(challenge: string, now: number): Promise<Challenge | undefined>;
  /** `passkey_refused` when the credential id is stored already (to this player or another). */
  addPasskey(passkey: Passkey): Promise<void>;
  passkey(id: string): Promise<Passkey | undefined>;
  passkeys(playerId: string): Promise<Passkey[]>;
  /** A verified sign-in: the passkey's counter, a new session for its player and the browser's
   * previous session ended, in one transaction. False, with nothing written, when the passkey is
   * gone (its player was deleted since it was read). */
  signIn(passkeyId: string, counter: number, session: SessionRow, replaces: string | null): Promise<boolean>;
}

export interface SessionRow {
  hash: string;
  playerId: string;
  expiresAt: number;
}

/** Player ids: `p_` and 22 base64url characters (128 random bits). */
export function newPlayerId(): string {
  return `p_${randomBytes(16).toString('base64url')}`;
}

/** A new session id (what the cookie holds) and the hash the store keeps of it. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionHash(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}
