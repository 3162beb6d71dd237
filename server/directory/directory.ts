// One way to reach a game, whichever instance plays it. One instance holds every game itself
// (directory/local.ts); a cluster finds the instance that owns it and reaches it there
// (cluster/directory.ts). Routes and connections ask the directory, never a particular one.

import type { ReadableGame } from '../games/records.ts';
import type { Room } from '../games/room.ts';
import type { Peer, RemoteLink } from './peer.ts';

/** Where a game a client connects to is played. */
export type Reached = { room: Room } | { link: RemoteLink };

/** A seat taken: its token goes to the client once; `instance` plays the game (in a cluster). */
export interface SeatTaken {
  seat: number;
  token: string;
  instance?: string;
}

export interface GameDirectory {
  /** This instance's id in a cluster (named in welcomes and seat grants); null alone. */
  readonly instance: string | null;
  /** The game a hello names, for `peer` (whose hello it is): played here, or through a link to
   * where it is played; undefined: no such game. Throws a CodedError (game_elsewhere,
   * game_damaged) when it cannot be reached now. */
  connect(gameId: string, peer: Peer, hello: string, playerId?: string | null): Promise<Reached | undefined>;
  /** Takes a person seat (`forRematch`: the seat reserved for that player) wherever the game is
   * played; a refusal is thrown as a CodedError. */
  takeSeat(gameId: string, name: string, seat: number | undefined, forRematch: boolean, playerId?: string): Promise<SeatTaken>;
  /** Listed games with an open seat, newest first. */
  listOpen(limit: number): Promise<ReadableGame[]>;
  /** A game to read (its summary): live here, or as its stored record stands. */
  read(gameId: string): Promise<ReadableGame | undefined>;
}
