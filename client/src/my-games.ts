// The lobby's "your games": the signed-in player's games from the server (on every device)
// merged with the seats this browser holds by token (games from before players, invite links
// taken as a guest elsewhere). No DOM: unit-tested in test/client-players.test.ts.

import type { PlayerGame } from './account-api.ts';
import type { HeldSeat } from './api.ts';
import type { GameSummary } from './protocol.ts';

export interface MyGame {
  gameId: string;
  seat: number;
  /** The name the seat was taken under. */
  name: string;
  /** Epoch ms, for the order: newest first. */
  at: number;
  /** The summary when the server sent it with the list; otherwise the lobby asks for it. */
  game: GameSummary | null;
}

/** One entry per game, newest first; a game in both lists keeps the server's summary. */
export function mergeMyGames(playerGames: PlayerGame[], held: HeldSeat[], limit = 8): MyGame[] {
  const byId = new Map<string, MyGame>();
  for (const { game, seat } of playerGames) {
    byId.set(game.id, { gameId: game.id, seat, name: game.seats[seat]?.name ?? '', at: Date.parse(game.createdAt) || 0, game });
  }
  for (const h of held) {
    const known = byId.get(h.gameId);
    if (known) known.at = Math.max(known.at, h.at);
    else byId.set(h.gameId, { gameId: h.gameId, seat: h.seat, name: h.name, at: h.at, game: null });
  }
  return [...byId.values()].sort((a, b) => b.at - a.at).slice(0, limit);
}
