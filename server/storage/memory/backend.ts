// Everything in memory (tests): the games, and the players and ratings beside them. A rated
// game's end moves its ratings in the same call (games.ts).

import { MemoryPlayers } from './players.ts';
import { MemoryStore } from './games.ts';
import { MemoryPush } from './push.ts';
import type { MemoryRatings } from './ratings.ts';

export interface MemoryBackend {
  readonly games: MemoryStore;
  readonly players: MemoryPlayers;
  readonly ratings: MemoryRatings;
  readonly push: MemoryPush;
  readonly leases: null;
  close(): Promise<void>;
}

export function memoryBackend(games = new MemoryStore()): MemoryBackend {
  const players = new MemoryPlayers(games);
  const ratings = games.ratings;
  ratings.nameOf = async (id) => (await players.player(id))?.name;
  return { games, players, ratings, push: new MemoryPush(players), leases: null, close: () => games.close() };
}
