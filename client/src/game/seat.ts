// The seat this browser holds in the game (its token kept in localStorage by api.ts): taking an
// open seat, losing it (the server no longer knows the token), and carrying it into a rematch.

import { HttpError, api, saveName, seats as heldSeats, type HeldSeat } from '../api.ts';
import { toast } from '../dom.ts';
import { claimName } from '../players/session.ts';
import type { GameView } from '../protocol.ts';

export class SeatKeeper {
  private readonly gameId: string;
  held: HeldSeat | null;

  constructor(gameId: string) {
    this.gameId = gameId;
    this.held = heldSeats.get(gameId);
  }

  /** The server does not know the token (any more): this browser watches. */
  forget(): void {
    heldSeats.forget(this.gameId);
    this.held = null;
  }

  /** Takes an open seat under `name`; false (and a toast saying why) when refused. */
  async join(name: string): Promise<boolean> {
    const problem = await claimName(name);
    if (problem) {
      toast(problem, 'error', 5000);
      return false;
    }
    try {
      const r = await api.join(this.gameId, name);
      saveName(name);
      this.held = { gameId: this.gameId, seat: r.seat, token: r.token, name, at: Date.now() };
      heldSeats.put(this.held);
      return true;
    } catch (e) {
      toast(e instanceof HttpError ? e.message : 'Could not join the game.', 'error', 5000);
      return false;
    }
  }

  /** Starts (or joins) the rematch of a finished game and goes there with this seat's token, or
   * as the signed-in player whose seat it was (taken on another device: no token here). */
  async rematch(v: GameView): Promise<void> {
    const held = this.held;
    if (!held && v.you === null) return;
    try {
      const r = await api.rematch(v.gameId, held?.token);
      heldSeats.put({ gameId: r.gameId, seat: r.seat, token: r.token, name: held?.name ?? v.seats[r.seat]?.name ?? '', at: Date.now() });
      location.hash = `#/g/${encodeURIComponent(r.gameId)}`;
    } catch (e) {
      toast(e instanceof HttpError ? e.message : 'Could not start a rematch.', 'error', 5000);
    }
  }
}
