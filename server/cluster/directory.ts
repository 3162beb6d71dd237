// A cluster's way to a game: the instance holding its lease plays it. A game held here is played
// here; one whose holder is gone is taken over on the spot (as the lease scan would); one held by
// a live instance is reached through the relay (with Redis), else answered game_elsewhere, so the
// client retries and the load balancer may send it to the holder.

import type { Logger } from 'pino';
import type { GameDirectory, Reached, SeatTaken } from '../directory/directory.ts';
import type { Peer, PeerHandler } from '../directory/peer.ts';
import { CodedError } from '../errors.ts';
import type { ReadableGame } from '../games/records.ts';
import { StoreOpenError } from '../storage/errors.ts';
import type { Room } from '../games/room.ts';
import type { GameService } from '../games/service.ts';
import { openGames } from '../games/store-operations.ts';
import { GameElsewhereError, type GameStore, isDamaged } from '../games/store.ts';
import type { Metrics } from '../metrics.ts';
import type { LeaseStore } from './lease-store.ts';
import { Leases } from './leases.ts';
import { Relay } from './relay.ts';

export interface ClusterDirectoryOptions {
  /** The game store. */
  store: GameStore;
  /** The games' leases as this cluster member holds them (`instance` is this one's id). */
  leases: LeaseStore & { readonly instance: string };
  games: GameService;
  metrics: Metrics;
  log: Logger;
  /** Redis, relaying clients and seat requests to the instance playing their game; null: none. */
  redisUrl: string | null;
  /** Unfinished games this instance may take on now (its maximum minus those it holds). */
  spareCapacity: () => number;
  /** A relayed client whose socket does not drain is dropped past this many bytes. */
  maxBufferedBytes: number;
  /** Serves a client relayed here as an ordinary connection of this instance. */
  serve(peer: Peer, log: Logger, playerId: string | null): PeerHandler;
}

export class ClusterDirectory implements GameDirectory {
  readonly instance: string;
  readonly leases: Leases;
  readonly relay: Relay | null;
  private readonly store: GameStore;
  private readonly leaseStore: LeaseStore;
  private readonly games: GameService;

  constructor(options: ClusterDirectoryOptions) {
    const { store, leases: leaseStore, games, log } = options;
    this.instance = leaseStore.instance;
    this.store = store;
    this.leaseStore = leaseStore;
    this.games = games;
    // A damaged game is let go and never taken again by this instance.
    games.onSetAside((id) => leaseStore.setAside(id));
    // A turn-based game is loaded by the instance a player or its deadline reaches, under its
    // lease, and given back with it when it rests.
    games.holdTurnBasedBy(leaseStore);
    this.leases = new Leases({ store: leaseStore, games, log: log.child({ component: 'leases' }), spareCapacity: options.spareCapacity });
    this.relay = options.redisUrl
      ? new Relay({
          url: options.redisUrl,
          metrics: options.metrics,
          store: leaseStore,
          games,
          log: log.child({ component: 'relay' }),
          serve: options.serve,
          maxBufferedBytes: options.maxBufferedBytes,
        })
      : null;
  }

  /** The game as `find` gets it here, or taken over if its holder is gone; GameElsewhereError
   * while a live instance holds it (or another is taking it over). */
  private async here<T extends ReadableGame>(gameId: string, find: (id: string) => Promise<T | undefined>): Promise<T | Room | undefined> {
    try {
      return await find(gameId);
    } catch (e) {
      if (!(e instanceof GameElsewhereError)) throw e;
      const stored = await this.leaseStore.claim(gameId);
      if (!stored) throw e;
      return this.games.take(stored);
    }
  }

  async connect(gameId: string, peer: Peer, hello: string, playerId: string | null = null): Promise<Reached | undefined> {
    try {
      const room = await this.here(gameId, (id) => this.games.room(id));
      return room && { room };
    } catch (e) {
      if (!(e instanceof GameElsewhereError)) throw e;
      const link = await this.relay?.link(peer, gameId, hello, playerId);
      if (link) return { link };
      throw e;
    }
  }

  async takeSeat(gameId: string, name: string, seat: number | undefined, forRematch: boolean, playerId?: string): Promise<SeatTaken> {
    try {
      const room = await this.here(gameId, (id) => this.games.room(id));
      if (!room) throw new CodedError('unknown_game', `no game ${JSON.stringify(gameId)}`);
      // A room held here may turn out lost to another instance on writing the seat: then too
      // the seat is asked for where the game went.
      const taken = await room.join(name, seat, forRematch, playerId);
      if ('error' in taken) throw new CodedError(taken.error, taken.message);
      return { ...taken, instance: this.instance };
    } catch (e) {
      if (!(e instanceof GameElsewhereError) || !this.relay) throw e;
      const taken = await this.relay.join(gameId, name, seat, forRematch, playerId);
      if (!('error' in taken)) return taken;
      throw taken.error === 'game_elsewhere' ? new GameElsewhereError(taken.message) : new CodedError(taken.error, taken.message);
    }
  }

  /** Every instance's listed games: those played elsewhere as their records stand (a waiting
   * game has no moves); a damaged one is left out. */
  async listOpen(limit: number): Promise<ReadableGame[]> {
    return (await openGames(this.store, limit)).flatMap((stored) => {
      const shown = (!isDamaged(stored) && this.games.loaded(stored.setup.id)) || this.games.snapshot(stored);
      return shown ? [shown] : [];
    });
  }

  /** Who is connected is only known where a game is played: elsewhere it is read as stored. */
  async read(gameId: string): Promise<ReadableGame | undefined> {
    try {
      return await this.here(gameId, (id) => this.games.get(id));
    } catch (e) {
      if (!(e instanceof GameElsewhereError)) throw e;
      const shown = await this.games.peek(gameId);
      if (!shown) throw e;
      return shown;
    }
  }

  /** At boot: Redis is reached (a cluster told to relay cannot run without it). */
  async connectRelay(): Promise<void> {
    if (!this.relay) return;
    try {
      await this.relay.start();
    } catch (e) {
      await this.relay.stop();
      throw new StoreOpenError(`cannot reach Redis at TESSERA_REDIS_URL: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Once every service is up (a boot that fails takes no game over): leases kept and taken. */
  start(): void {
    this.leases.start();
  }

  /** After the games' drain: the leases end at once, for the others to take the games, and
   * relayed clients are sent to reconnect. */
  async stop(): Promise<void> {
    await this.leases.stop();
    await this.relay?.stop();
  }
}
