// What the game's features keep in the store, as uses of its generic operations (GameStore):
// a new feature adds a function here, not a method to every store.

import {
  type DamagedGame,
  type GameDocument,
  type GameEnd,
  type GameQuery,
  type GameSetup,
  type GameStore,
  isDamaged,
  type ListedGame,
  RematchTakenError,
  type SeatHolder,
  type StoredGame,
} from './store.ts';

/** A finished game as listed: no moves (listing never replays). */
export interface FinishedEntry {
  setup: GameSetup;
  holders: (SeatHolder | null)[];
  end: GameEnd;
  finishedAt: string;
}

export interface FinishedPage {
  games: FinishedEntry[];
  /** Cursor for the next (older) page, or null. */
  next: string | null;
}

export type ListFinishedQuery = Omit<GameQuery, 'finished' | 'open'>;

/** A person takes `seat`: the game's activity (and its people's presence) counts from now. */
export function takeSeat(store: GameStore, id: string, seat: number, holder: SeatHolder): Promise<void> {
  return store.update(id, {
    name: 'take_seat',
    apply: ({ holders }) => {
      if (seat < 0 || seat >= holders.length) throw new Error(`game ${id} has no seat ${seat}`);
      holders[seat] = { ...holder };
      const now = Date.now();
      return { holders, lastActivityAt: now, lastPersonAt: now };
    },
  });
}

/** Links a finished game to its rematch, once: RematchTakenError when it has another already. */
export function setRematch(store: GameStore, id: string, rematchId: string): Promise<void> {
  return store.update(id, {
    name: 'rematch',
    apply: ({ rematch }) => {
      if (rematch && rematch !== rematchId) throw new RematchTakenError(id, rematch);
      return { rematch: rematchId };
    },
  });
}

/** A person of the game was seen at `at` (ms since the epoch); a later mark never moves back,
 * and a finished game keeps its last. */
export function markSeen(store: GameStore, id: string, at: number): Promise<void> {
  return store.update(id, {
    name: 'seen',
    advisory: true,
    apply: ({ finished, lastPersonAt }) => (finished ? null : { lastPersonAt: Math.max(lastPersonAt ?? 0, Math.round(at)) }),
  });
}

/** Counts a hint given to `seat`. */
export function recordHint(store: GameStore, id: string, seat: number): Promise<void> {
  return store.update(id, {
    name: 'hint',
    apply: ({ hints }) => {
      hints[seat] = (hints[seat] ?? 0) + 1;
      return { hints };
    },
  });
}

/** Stores (or replaces) a finished game's analysis (server/analysis/stored.ts is its form). */
export function saveAnalysis(store: Pick<GameStore, 'putDocument'>, id: string, analysis: GameDocument): Promise<void> {
  return store.putDocument(id, 'analysis', analysis);
}

export function getAnalysis(store: Pick<GameStore, 'getDocument'>, id: string): Promise<GameDocument | undefined> {
  return store.getDocument(id, 'analysis');
}

/** Finished games, most recent first; a damaged one is left out of its page. */
export async function listFinished(store: Pick<GameStore, 'list'>, query: ListFinishedQuery): Promise<FinishedPage> {
  const page = await store.list({ ...query, finished: true });
  const games = page.games.flatMap((g) => (isDamaged(g) || !g.end || g.finishedAt === null ? [] : [{ setup: g.setup, holders: g.holders, end: g.end, finishedAt: g.finishedAt }]));
  return { games, next: page.next };
}

/** Every game not finished, whole and oldest first (restart recovery); a damaged one as a marker. */
export async function unfinishedGames(store: GameStore): Promise<(StoredGame | DamagedGame)[]> {
  const listed: (ListedGame | DamagedGame)[] = [];
  let before: string | undefined;
  do {
    const page = await store.list({ finished: false, limit: 100, withMoves: true, ...(before === undefined ? {} : { before }) });
    listed.push(...page.games);
    before = page.next ?? undefined;
  } while (before !== undefined);
  return listed.reverse().map(wholeGame);
}

/** Listed games with an open seat, newest first, whole (the lobby across instances). */
export async function openGames(store: GameStore, limit: number): Promise<(StoredGame | DamagedGame)[]> {
  return (await store.list({ finished: false, open: true, limit, withMoves: true })).games.map(wholeGame);
}

/** A game listed with its moves, as `get` reads it. */
function wholeGame(g: ListedGame | DamagedGame): StoredGame | DamagedGame {
  if (isDamaged(g)) return g;
  const { finishedAt: _, moves = [], ...game } = g;
  return { ...game, moves };
}
