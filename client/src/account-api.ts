// Every call to the routes of players, passkeys, ratings and profiles (issue R), and the shapes
// the client reads from them, in one place: the server's schemas are matched here and nowhere
// else, so a change of shape is a change of this file.

import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import { call } from './api.ts';
import type { GameSummary, Rules, SeatView } from './protocol.ts';

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

export interface ResultRow {
  /** What the row groups: "2 players", "Inns & Cathedrals", … */
  label: string;
  games: number;
  wins: number;
  /** Mean place, 1 = first. */
  meanPlace: number | null;
}

export interface ProfileGame {
  id: string;
  finishedAt: string;
  rules: Rules;
  rated: boolean;
  players: { seat: number; name: string; score: number; playerId?: string }[];
  /** The profile's own seat in it. */
  seat: number;
  analysed: boolean;
}

export interface Profile {
  id: string;
  name: string;
  games: number;
  recent: ProfileGame[];
  byPlayerCount: ResultRow[];
  byOptions: ResultRow[];
  analysis: {
    /** Mean points lost per analysed move, or null with no analysed game. */
    pointsLostPerMove: number | null;
    analysedMoves: number;
    /** The kind of mistake made most often, in words, or null. */
    commonMistake: string | null;
  };
}

/** A game the signed-in player holds a seat in (on any device). */
export interface PlayerGame {
  game: GameSummary;
  seat: number;
}

/** What a seat view carries in issue R beyond today's fields: read only through these. */
type RatedSeat = SeatView & { playerId?: string | null; rating?: number | null };

/** The displayed rating of the player in a seat, when the view carries one. */
export const seatRating = (seat: SeatView): number | null => (seat as RatedSeat).rating ?? null;

/** The player id of a seat (persons signed in, bots as `bot:<level>`), when the view carries one. */
export const seatPlayerId = (seat: SeatView): string | null => (seat as RatedSeat).playerId ?? null;

/** Whether a game summary or view was created rated. */
export const isRated = (game: object): boolean => (game as { rated?: boolean }).rated === true;

interface SessionReply {
  player: { id: string; name: string; passkeys: number | unknown[] } | null;
}

const toPlayer = (reply: SessionReply): Player | null =>
  reply.player ? { id: reply.player.id, name: reply.player.name, passkeys: Array.isArray(reply.player.passkeys) ? reply.player.passkeys.length : reply.player.passkeys } : null;

const enc = encodeURIComponent;

export const accountApi = {
  session: async () => toPlayer(await call<SessionReply>('GET', '/api/session')),
  /** Makes a guest player and its session cookie when the browser has none. */
  startSession: async () => toPlayer(await call<SessionReply>('POST', '/api/session')),
  rename: async (name: string) => toPlayer({ player: await call<NonNullable<SessionReply['player']>>('PATCH', '/api/me', { name }) }),
  deletePlayer: () => call<unknown>('DELETE', '/api/me'),
  signOut: () => call<unknown>('POST', '/api/session/sign-out'),
  myGames: async () => (await call<{ games: (GameSummary & { you: number })[] }>('GET', '/api/me/games')).games.map((g): PlayerGame => ({ game: g, seat: g.you })),
  registrationOptions: () => call<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/passkeys/registration/options'),
  register: async (response: RegistrationResponseJSON) => toPlayer(await call<SessionReply>('POST', '/api/passkeys/registration', { response })),
  authenticationOptions: () => call<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/passkeys/authentication/options'),
  authenticate: async (response: AuthenticationResponseJSON) => toPlayer(await call<SessionReply>('POST', '/api/passkeys/authentication', { response })),
  leaderboard: (before?: string) => call<Leaderboard>('GET', `/api/leaderboard?limit=50${before ? `&before=${enc(before)}` : ''}`),
  ratings: async (id: string) => (await call<{ points: RatingPoint[] }>('GET', `/api/players/${enc(id)}/ratings`)).points,
  profile: (id: string) => call<Profile>('GET', `/api/players/${enc(id)}/profile`),
};
