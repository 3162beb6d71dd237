// The lobby's "your games": the signed-in player's games from the server (on every device)
// merged with the seats this browser holds by token (games from before players, invite links
// taken as a guest elsewhere). No DOM: unit-tested in test/client-players.test.ts.

import type { PlayerGame } from './player-api.ts';
import type { HeldSeat } from '../api.ts';

export type MyGame = PlayerGame;

/** One entry per game: the games where it is the player's turn first (the soonest deadline
 * first), then seats kept for them (challenges), then the rest newest first; the player's list
 * wins where both hold a game. */
export function mergeMyGames(playerGames: PlayerGame[], held: HeldSeat[], limit = 8): MyGame[] {
  const byId = new Map<string, MyGame>();
  for (const g of playerGames) byId.set(g.gameId, { ...g });
  for (const h of held) {
    const known = byId.get(h.gameId);
    if (known) known.at = Math.max(known.at, h.at);
    else byId.set(h.gameId, { gameId: h.gameId, seat: h.seat, name: h.name, at: h.at });
  }
  const rank = (g: MyGame) => (g.yourTurn ? 0 : g.invited ? 1 : 2);
  const deadline = (g: MyGame) => g.deadline ?? Number.POSITIVE_INFINITY;
  return [...byId.values()].sort((a, b) => rank(a) - rank(b) || (rank(a) === 0 ? deadline(a) - deadline(b) : 0) || b.at - a.at).slice(0, limit);
}
