// Every call to the routes of players, passkeys, ratings and profiles (issue R), and the shapes
// the client reads from them, in one place: the server's schemas are matched here and nowhere
// else, so a change of shape is a change of this file.

import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import { call } from './api.ts';
import type { FinishedGames, Rules, SeatView } from './protocol.ts';

/** The player this browser's session belongs to. */
export interface Player {
  id: string;
  name: string;
  /** Passkeys registered to the player: with none, the player lives only in this browser. */
  passkeys: number;
}

/** One row of the leaderboard: a person or a bot level (`bot:<level>`). */
export interface LeaderboardEntry {
  playerId: string;
  name: string;
  rating: number;
  games: number;
  /** Too few games for the rating to mean much yet. */
  provisional: boolean;
  bot: boolean;
}

export interface Leaderboard {
  players: LeaderboardEntry[];
  next: string | null;
}

/** The rating after one rated game. */
export interface RatingPoint {
  gameId: string;
  at: string;
  rating: number;
}

/** Results over a group of games (all, by number of players, by an option's value). */
export interface Results {
  games: number;
  wins: number;
  /** Mean place, 1 = first; null without games. */
  meanPlace: number | null;
}

export type MistakeKind = 'abbot_timing' | 'figure_withheld' | 'figure_wasted' | 'wrong_feature' | 'wrong_figure' | 'tile_placement';

export interface ProfileGame {
  id: string;
  finishedAt: string;
  rules: Rules;
  rated: boolean;
  abandoned: boolean;
  players: FinishedGames['games'][number]['players'];
  /** The profile's own seat in it, and its place there. */
  seat: number;
  place: number;
  analysed: boolean;
}

/** GET /api/players/:id/profile (server/wire/profile.ts). */
export interface Profile extends Results {
  id: string;
  name: string;
  byPlayers: (Results & { players: number })[];
  byOption: (Results & { option: string; value: string })[];
  analysis: {
    games: number;
    moves: number;
    pointsLostPerMove: number | null;
    /** Moves that lost 3 points or more, all and by kind. */
    mistakes: number;
    byKind: Partial<Record<MistakeKind, number>>;
    commonMistake: MistakeKind | null;
  };
  recent: ProfileGame[];
  /** The numbers count at most this many of the latest finished games. */
  window: number;
}

/** A game the signed-in player holds a seat in (on any device). */
export interface PlayerGame {
  gameId: string;
  seat: number;
  /** The name the seat is held under. */
  name: string;
  /** Epoch ms it finished, or was created while it is not finished. */
  at: number;
}

/** GET /api/me/games: a page of the player's games, waiting and playing, or finished. */
interface MyGames {
  games: { id: string; createdAt: string; finishedAt: string | null; seats: string[]; mySeats: number[]; rated: boolean }[];
  next: string | null;
}

const playerGames = (page: MyGames): PlayerGame[] =>
  page.games.flatMap((g) => (g.mySeats.length ? [{ gameId: g.id, seat: g.mySeats[0], name: g.seats[g.mySeats[0]] ?? '', at: Date.parse(g.finishedAt ?? g.createdAt) || 0 }] : []));

/** What a seat view carries in issue R beyond today's fields: read only through these. */
type RatedSeat = SeatView & { playerId?: string | null; rating?: number | null };

/** The displayed rating of the player in a seat, when the view carries one. */
export const seatRating = (seat: SeatView): number | null => (seat as RatedSeat).rating ?? null;

/** The player id of a seat (persons signed in, bots as `bot:<level>`), when the view carries one. */
export const seatPlayerId = (seat: SeatView): string | null => (seat as RatedSeat).playerId ?? null;

/** Whether a game summary or view was created rated. */
export const isRated = (game: object): boolean => (game as { rated?: boolean }).rated === true;

interface SessionReply {
  player: Player | null;
}

const enc = encodeURIComponent;

export const accountApi = {
  session: async () => (await call<SessionReply>('GET', '/api/session')).player,
  /** Makes a guest player and its session cookie when the browser has none (named `name`, or
   * "Guest" and digits); already signed in, that player. */
  startSession: async (name?: string) => (await call<SessionReply>('POST', '/api/session', name ? { name } : {})).player,
  rename: (name: string) => call<Player>('PATCH', '/api/me', { name }),
  deletePlayer: () => call<null>('DELETE', '/api/me'),
  signOut: () => call<null>('POST', '/api/session/sign-out'),
  /** The player's games on any device: those still waiting or playing, then finished ones. */
  myGames: async (limit = 8) => {
    const [open, finished] = await Promise.all([false, true].map((done) => call<MyGames>('GET', `/api/me/games?finished=${done}&limit=${limit}`)));
    return [...playerGames(open), ...playerGames(finished)];
  },
  registrationOptions: () => call<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/passkeys/registration/options'),
  register: (response: RegistrationResponseJSON) => call<Player>('POST', '/api/passkeys/registration', response),
  authenticationOptions: () => call<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/passkeys/authentication/options'),
  authenticate: async (response: AuthenticationResponseJSON) => (await call<SessionReply>('POST', '/api/passkeys/authentication', response)).player,
  leaderboard: (before?: string) => call<Leaderboard>('GET', `/api/leaderboard?limit=50${before ? `&before=${enc(before)}` : ''}`),
  ratings: async (id: string) => (await call<{ points: RatingPoint[] }>('GET', `/api/players/${enc(id)}/ratings`)).points,
  profile: (id: string) => call<Profile>('GET', `/api/players/${enc(id)}/profile`),
};
