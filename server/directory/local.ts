// One instance: every game is played here, so the directory is the game service itself.

import { CodedError } from '../errors.ts';
import type { ReadableGame } from '../games/records.ts';
import type { GameService } from '../games/service.ts';
import type { GameDirectory, Reached, SeatTaken } from './directory.ts';

export class LocalDirectory implements GameDirectory {
  readonly instance = null;
  private readonly games: GameService;

  constructor(games: GameService) {
    this.games = games;
  }

  async connect(gameId: string): Promise<Reached | undefined> {
    const room = await this.games.room(gameId);
    return room && { room };
  }

  async takeSeat(gameId: string, name: string, seat: number | undefined, forRematch: boolean, playerId?: string): Promise<SeatTaken> {
    const room = await this.games.room(gameId);
    if (!room) throw new CodedError('unknown_game', `no game ${JSON.stringify(gameId)}`);
    const taken = await room.join(name, seat, forRematch, playerId);
    if ('error' in taken) throw new CodedError(taken.error, taken.message);
    return taken;
  }

  listOpen(limit: number): Promise<ReadableGame[]> {
    return Promise.resolve(this.games.listedWaiting(limit));
  }

  read(gameId: string): Promise<ReadableGame | undefined> {
    return this.games.get(gameId);
  }
}
