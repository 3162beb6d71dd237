// A store that keeps everything in memory, for tests: the contract (store.ts) with no database,
// each call's data copied in and out so a caller can never change what is stored.

import type { RecordMove } from '../../../bot-engine/record.ts';
import { MemoryRatings } from './ratings.ts';
import {
  createdAtMs,
  type DocumentKind,
  type DueTurn,
  moveMsOf,
  type GameDocument,
  type GameEnd,
  type GamePage,
  type GameQuery,
  type GameSetup,
  type GameStore,
  type MetadataChange,
  pageSize,
  type SeatHolder,
  type StoredGame,
} from '../../games/store.ts';
import { refuseDeletedKept, setupWithoutKept } from '../../games/seats.ts';

export class MemoryStore implements GameStore {
  /** The ratings its rated ends move (server/ratings/). */
  readonly ratings = new MemoryRatings();
  private readonly games = new Map<string, StoredGame>();
  private readonly finishedAt = new Map<string, string>();
  private readonly documents = new Map<string, GameDocument>();
  /** Which player is in which game, as the databases index it: the games where each player
   * holds a seat, and where a seat is kept for them (challenged by name). */
  private readonly held = new Map<string, Set<string>>();
  private readonly kept = new Map<string, Set<string>>();
  /** Players deleted: a new game keeps no seat for them, as a database reads from its players. */
  private readonly deletedPlayers = new Set<string>();

  async create(setup: GameSetup, holders: (SeatHolder | null)[]): Promise<void> {
    if (this.games.has(setup.id)) throw new Error(`game ${setup.id} already exists`);
    refuseDeletedKept(setup, this.deletedPlayers);
    const at = createdAtMs(setup);
    this.games.set(setup.id, {
      setup: structuredClone(setup),
      holders: structuredClone(holders),
      moves: [],
      finished: false,
      end: null,
      rematch: null,
      hints: [],
      lastActivityAt: at,
      lastPersonAt: at,
    });
    this.indexSeats(this.held, setup.id, [], holders);
    for (const s of setup.seats) if (s.player) indexed(this.kept, s.player.id).add(setup.id);
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const g = this.games.get(id);
    return g && structuredClone(g);
  }

  async appendMoves(id: string, moves: RecordMove[], end: GameEnd | null): Promise<void> {
    const g = this.must(id);
    const at = new Date().toISOString();
    // Rated first: a refusal there keeps nothing, like a rolled-back transaction.
    if (end?.rated) this.ratings.rateEnd(id, end.rated, at);
    g.moves.push(...moves.map((m) => ({ ...m })));
    if (moves.length > 0) g.lastActivityAt = Date.now();
    if (!end) return;
    g.finished = true;
    g.end = { abandoned: end.abandoned, scores: end.scores && [...end.scores] };
    this.finishedAt.set(id, at);
  }

  async update(id: string, change: MetadataChange): Promise<void> {
    const g = this.must(id);
    const { holders, finished, rematch, hints, lastActivityAt, lastPersonAt, marks } = g;
    const patch = change.apply(structuredClone({ holders, finished, rematch, hints, lastActivityAt, lastPersonAt, ...(marks ? { marks } : {}) }));
    if (!patch) return;
    if (patch.holders) this.indexSeats(this.held, id, holders, patch.holders);
    Object.assign(g, structuredClone(patch));
  }

  /** A deleted player's kept seats become ordinary open ones (MemoryPlayers.deletePlayer), as a
   * database does in the deletion's transaction. */
  forgetKept(playerId: string): void {
    this.deletedPlayers.add(playerId);
    for (const id of this.kept.get(playerId) ?? []) {
      const g = this.must(id);
      g.setup = setupWithoutKept(g.setup, playerId) ?? g.setup;
    }
    this.kept.delete(playerId);
  }

  /** The game's held seats change from `was` to `now`. */
  private indexSeats(index: Map<string, Set<string>>, id: string, was: (SeatHolder | null)[], now: (SeatHolder | null)[]): void {
    for (const h of was) if (h?.playerId) index.get(h.playerId)?.delete(id);
    for (const h of now) if (h?.playerId) indexed(index, h.playerId).add(id);
  }

  /** The player's games as the index has them (each once). */
  private gamesOf(playerId: string, invited: boolean): StoredGame[] {
    const ids = new Set([...(this.held.get(playerId) ?? []), ...(invited ? (this.kept.get(playerId) ?? []) : [])]);
    return [...ids].map((id) => this.must(id));
  }

  async list(query: GameQuery): Promise<GamePage> {
    const limit = pageSize(query);
    const player = query.player?.toLowerCase();
    const key = (g: StoredGame) => `${query.finished ? this.finishedAt.get(g.setup.id) : g.setup.createdAt}\u0000${g.setup.id}`;
    const before = query.before === undefined ? undefined : Buffer.from(query.before, 'base64url').toString('utf8');
    const all = (query.playerId ? this.gamesOf(query.playerId, query.invited === true) : [...this.games.values()])
      .filter((g) => g.finished === query.finished && (!player || g.holders.some((h) => h?.name.toLowerCase() === player)))
      .filter((g) => !query.open || (g.setup.listed === true && g.holders.includes(null)))
      .filter((g) => !query.publicOnly || g.setup.listed === true || g.setup.rated === true)
      .filter((g) => !query.pace || (g.setup.pace ? 'turnBased' : 'live') === query.pace)
      .filter((g) => before === undefined || key(g) < before)
      .sort((a, b) => (key(a) < key(b) ? 1 : -1));
    const page = all
      .slice(0, limit)
      .map(({ moves, ...g }) => ({ ...structuredClone(g), ...(query.withMoves ? { moves: structuredClone(moves) } : {}), finishedAt: this.finishedAt.get(g.setup.id) ?? null }));
    const last = all[page.length - 1];
    return { games: page, next: all.length > limit && last ? Buffer.from(key(last)).toString('base64url') : null };
  }

  async dueTurns(before: number, limit: number): Promise<DueTurn[]> {
    const due: DueTurn[] = [];
    for (const g of this.games.values()) {
      const moveMs = moveMsOf(g.setup);
      if (g.finished || moveMs === null || g.lastActivityAt === undefined || g.holders.includes(null)) continue;
      const deadline = g.lastActivityAt + moveMs;
      if (deadline <= before) due.push({ id: g.setup.id, deadline, moveMs, turn: g.moves.length, marks: g.marks ? structuredClone(g.marks) : null });
    }
    return due.sort((a, b) => a.deadline - b.deadline).slice(0, limit);
  }

  async putDocument(id: string, kind: DocumentKind, document: GameDocument): Promise<void> {
    this.must(id);
    this.documents.set(`${kind}\u0000${id}`, structuredClone(document));
  }

  async getDocument(id: string, kind: DocumentKind): Promise<GameDocument | undefined> {
    const d = this.documents.get(`${kind}\u0000${id}`);
    return d && structuredClone(d);
  }

  async probe(): Promise<void> {}

  async close(): Promise<void> {}

  private must(id: string): StoredGame {
    const g = this.games.get(id);
    if (!g) throw new Error(`no game ${id}`);
    return g;
  }
}

function indexed(index: Map<string, Set<string>>, playerId: string): Set<string> {
  let games = index.get(playerId);
  if (!games) {
    games = new Set();
    index.set(playerId, games);
  }
  return games;
}
