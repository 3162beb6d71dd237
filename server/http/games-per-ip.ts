// Unfinished games per client address. The create route's rate limit bounds how fast one address
// makes games, not how many it holds: at 30 a minute, games nobody joins (they last an hour)
// would fill the server's `maxGames` within about half an hour and refuse every other address.
// Counted in memory, per instance: a restart or a game another instance took over frees its place.

import { CodedError } from '../errors.ts';

export class GamesPerIp {
  private readonly byIp = new Map<string, { games: Set<string>; creating: number }>();
  private readonly cap: number;
  private readonly unfinished: (id: string) => boolean;
  /** Past this many addresses, every address is pruned (each holds a game, or is dropped). */
  private readonly pruneAbove: number;

  constructor(cap: number, unfinished: (id: string) => boolean, pruneAbove: number) {
    this.cap = cap;
    this.unfinished = unfinished;
    this.pruneAbove = pruneAbove;
  }

  /** Takes a place for a game `ip` is creating, or throws `too_many_games`. Call the returned
   * function once with the game's id, or null if the creation failed. */
  reserve(ip: string): (id: string | null) => void {
    if (this.byIp.size > this.pruneAbove) for (const held of this.byIp.keys()) this.prune(held);
    const entry = this.prune(ip) ?? { games: new Set<string>(), creating: 0 };
    if (entry.games.size + entry.creating >= this.cap) throw new CodedError('too_many_games', `this address has ${this.cap} games that are not finished: finish or leave one first`);
    entry.creating++;
    this.byIp.set(ip, entry);
    return (id) => {
      entry.creating--;
      if (id !== null) entry.games.add(id);
      if (entry.games.size === 0 && entry.creating === 0) this.byIp.delete(ip);
    };
  }

  /** The address's entry with its finished (or no longer held) games dropped; none if empty. */
  private prune(ip: string): { games: Set<string>; creating: number } | undefined {
    const entry = this.byIp.get(ip);
    if (!entry) return undefined;
    for (const id of entry.games) if (!this.unfinished(id)) entry.games.delete(id);
    if (entry.games.size > 0 || entry.creating > 0) return entry;
    this.byIp.delete(ip);
    return undefined;
  }
}
