// Finished games kept in memory, keyed by game id, least recently used first: one cache for a
// finished game read from the store and for a room built for its watchers.

export class FinishedGames<T extends { readonly id: string }> {
  private readonly games = new Map<string, T>();
  /** Games nobody watches kept at most (watched ones come on top). */
  private readonly limit: number;
  /** A watched game is never evicted: a second room built for it would split its watchers. */
  private readonly watched: (game: T) => boolean;

  constructor(limit: number, watched: (game: T) => boolean) {
    this.limit = limit;
    this.watched = watched;
  }

  get size(): number {
    return this.games.size;
  }

  /** The game, made the most recently used. */
  get(id: string): T | undefined {
    const game = this.games.get(id);
    if (game) this.add(game);
    return game;
  }

  /** Every game held, least recently used first. */
  all(): T[] {
    return [...this.games.values()];
  }

  /** Drops the game: the next read loads it again. */
  delete(id: string): void {
    this.games.delete(id);
  }

  /** The game, its place in the order unchanged. */
  peek(id: string): T | undefined {
    return this.games.get(id);
  }

  /** Adds (or replaces) the game as the most recently used; beyond `limit` games nobody
   * watches, the least recently used of those leave. */
  add(game: T): void {
    this.games.delete(game.id);
    this.games.set(game.id, game);
    let over = -this.limit;
    for (const held of this.games.values()) if (!this.watched(held)) over++;
    for (const [id, held] of this.games) {
      if (over <= 0) break;
      if (this.watched(held)) continue;
      this.games.delete(id);
      over--;
    }
  }
}
