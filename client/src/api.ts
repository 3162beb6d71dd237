// HTTP API calls and the seats this browser holds (seat tokens live in localStorage, so a
// refresh, a new tab or a dropped connection finds its seat again).

import type { AnalysisAnswer, AnalysisNotAsked, FinishedGames, GameSummary, OpenGames, Rules, SeatGrant, SeatRequest } from './protocol.ts';

/** The server answered with an error status: its catalogue code and message, as sent. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** One JSON call; a failure status becomes an HttpError with the server's catalogue code. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const d = (data ?? {}) as { code?: string; message?: string };
    throw new HttpError(res.status, d.code ?? String(res.status), d.message ?? (text || res.statusText));
  }
  return data as T;
}

export const api = {
  createGame: (seats: SeatRequest[], options: GameOptions = {}) => call<GameSummary>('POST', '/api/games', { seats, ...options }),
  finishedGames: (limit = 8) => call<FinishedGames>('GET', `/api/games/finished?limit=${limit}`),
  openGames: (limit = 50) => call<OpenGames>('GET', `/api/games?limit=${limit}`),
  game: (id: string) => call<GameSummary>('GET', `/api/games/${encodeURIComponent(id)}`),
  join: (id: string, name: string, seat?: number) => call<SeatGrant>('POST', `/api/games/${encodeURIComponent(id)}/seats`, { name, ...(seat === undefined ? {} : { seat }) }),
  record: (id: string) => call<unknown>('GET', `/api/games/${encodeURIComponent(id)}/record`),
  analyse: (id: string) => call<AnalysisAnswer>('POST', `/api/games/${encodeURIComponent(id)}/analysis`),
  // `orNone`: a game nobody asked to analyse is a 200 `none`, not a 404 the console would log.
  analysis: (id: string) => call<AnalysisAnswer | AnalysisNotAsked>('GET', `/api/games/${encodeURIComponent(id)}/analysis?orNone=true`),
  /** Without a token the session's player asks (a seat taken on another device). */
  rematch: (id: string, token?: string) => call<SeatGrant>('POST', `/api/games/${encodeURIComponent(id)}/rematch`, token ? { token } : {}),
};

/** What a new game may choose besides its seats; absent means the server's default. */
export interface GameOptions {
  rules?: Partial<Rules>;
  clock?: { turnSeconds: number | null };
  listed?: boolean;
  hints?: boolean;
  /** Every person seat must be a signed-in player; the result changes ratings. */
  rated?: boolean;
  /** Turn-based, with days per move; absent: live. */
  pace?: { kind: 'turnBased'; moveDays: 1 | 2 | 3 | 5 | 7 };
}

// ---- seats held by this browser ----

export interface HeldSeat {
  gameId: string;
  seat: number;
  token: string;
  name: string;
  /** Epoch ms the seat was taken (for the lobby's "your games"). */
  at: number;
}

const KEY = 'tessera.seats.v1';
const NAME_KEY = 'tessera.name';

function readAll(): Record<string, HeldSeat> {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

function writeAll(all: Record<string, HeldSeat>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* private mode: seats last for this page only */
  }
}

export const seats = {
  get(gameId: string): HeldSeat | null {
    return readAll()[gameId] ?? null;
  },
  put(seat: HeldSeat): void {
    const all = readAll();
    all[seat.gameId] = seat;
    // Keep the 50 newest.
    const keep = Object.values(all)
      .sort((a, b) => b.at - a.at)
      .slice(0, 50);
    writeAll(Object.fromEntries(keep.map((s) => [s.gameId, s])));
  },
  forget(gameId: string): void {
    const all = readAll();
    delete all[gameId];
    writeAll(all);
  },
  list(): HeldSeat[] {
    return Object.values(readAll()).sort((a, b) => b.at - a.at);
  },
};

export function savedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

export function saveName(name: string): void {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* ignore */
  }
}

/** After signing out or deleting the player, this browser keeps nothing of them: on a shared
 * computer the next person must not see their games, play their seats or take the name back. */
export function forgetPlayerHere(): void {
  try {
    localStorage.removeItem(NAME_KEY);
    localStorage.removeItem(KEY);
  } catch {
    /* ignore */
  }
}
