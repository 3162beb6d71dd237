// What the cluster needs of the game store beyond the game contract: who owns each unfinished
// game, under a lease with a fencing epoch kept beside the records (PostgresStore implements it),
// so that a stale owner's write fails in the same transaction that would have stored it.

import type { DamagedGame, StoredGame } from '../games/store.ts';

/** Who holds a game now. */
export interface Ownership {
  owner: string | null;
  /** The fencing epoch it holds the game at: a new one each time the game is taken, even by an
   * instance restarted under the same id (whose relayed sockets did not survive the restart). */
  epoch: number;
  /** Its owner's lease still runs. */
  live: boolean;
  finished: boolean;
}

export interface LeaseStore {
  /** This instance's unique name. */
  readonly instance: string | null;
  /** How long an owner's lease lasts without renewal. */
  readonly leaseMs: number;
  /** Games this instance owns now. */
  readonly owned: string[];
  /** The owner of a game; undefined: no such game. */
  ownerOf(id: string): Promise<Ownership | undefined>;
  /** Owners of several games at once. */
  owners(ids: string[]): Promise<Map<string, Ownership>>;
  /** Takes over one unfinished game if no live instance holds it; undefined when another does. */
  claim(id: string): Promise<StoredGame | undefined>;
  /** Takes over up to `limit` unfinished games whose lease ran out, each at a new epoch; a seated
   * turn-based game is never among them (it is loaded by the instance a player or a deadline
   * reaches: `claim`). */
  claimExpired(limit: number): Promise<(StoredGame | DamagedGame)[]>;
  /** At boot: the games still leased to this instance id, taken back at a new epoch. */
  reclaimOwn(limit: number): Promise<(StoredGame | DamagedGame)[]>;
  /** Extends this instance's leases; returns the games it no longer owns. */
  renew(): Promise<string[]>;
  /** A turn-based game this instance let leave memory (it rests): its lease ends now and names no
   * owner, so the next instance reached claims it. */
  letGo(id: string): Promise<void>;
  /** Forgets a game this instance let go of. */
  release(id: string): void;
  /** A damaged game: let go, and never taken over again here. */
  setAside(id: string): void;
  /** Gives up every lease at once (a clean shutdown). */
  releaseAll(): Promise<void>;
}
