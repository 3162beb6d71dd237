// The games that wait for a player: not finished, and one of the player's seats is to move (not a
// seat dropped for missed turns: a bot plays it). A game played here is read from its room; any
// other from its listing alone (deadlines.ts `turnOf`: the record's length, no replay).

import type { GameService } from '../games/service.ts';
import { turnOf } from '../games/deadlines.ts';
import { type GameStore, isDamaged, type ListedGame } from '../games/store.ts';

/** Looked at per call: the player's 100 most recent unfinished games. */
export const WAITING_LOOKED_AT = 100;

export async function waitingGames(store: GameStore, games: GameService, playerId: string): Promise<string[]> {
  const page = await store.list({ finished: false, playerId, limit: WAITING_LOOKED_AT, withMoves: true });
  return page.games.flatMap((g) => (!isDamaged(g) && waitsFor(g, playerId, games) ? [g.setup.id] : []));
}

function waitsFor(game: ListedGame, playerId: string, games: GameService): boolean {
  const mine = game.holders.flatMap((h, seat) => (h?.playerId === playerId ? [seat] : []));
  const room = games.loaded(game.setup.id);
  if (room) {
    const view = room.view(null);
    const seat = view.status === 'playing' ? view.currentSeat : null;
    return seat !== null && mine.includes(seat) && view.seats[seat].standIn !== 'dropped';
  }
  const seat = turnOf({ ...game, moves: game.moves ?? [] }).currentSeat;
  return seat !== null && mine.includes(seat) && (game.marks?.droppedAt[seat] ?? null) === null;
}
