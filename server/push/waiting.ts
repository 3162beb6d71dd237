// The games that wait for a player: not finished, and one of the player's seats is to move. A
// game played here is read from its room; any other from its stored record, replayed once.

import type { GameService } from '../games/service.ts';
import { type GameStore, isDamaged } from '../games/store.ts';
import type { GameView } from '../wire/game.ts';

/** Looked at per call: the player's 100 most recent unfinished games. */
export const WAITING_LOOKED_AT = 100;

export async function waitingGames(store: GameStore, games: GameService, playerId: string): Promise<string[]> {
  const page = await store.list({ finished: false, playerId, limit: WAITING_LOOKED_AT, withMoves: true });
  const waiting: string[] = [];
  for (const g of page.games) {
    if (isDamaged(g)) continue;
    const mine = g.holders.flatMap((h, seat) => (h?.playerId === playerId ? [seat] : []));
    const view: GameView | undefined = games.loaded(g.setup.id)?.view(null) ?? games.snapshot({ ...g, moves: g.moves ?? [] })?.view(null);
    if (view?.status === 'playing' && view.currentSeat !== null && mine.includes(view.currentSeat)) waiting.push(g.setup.id);
  }
  return waiting;
}
