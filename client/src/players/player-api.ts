// Every call to the routes of players, passkeys, ratings and profiles (issue R), and the shapes
// the client reads from them, in one place. The answers are the server's own types
// (server/wire/players.ts, profile.ts, ratings.ts), so a change of shape fails the client's
// build here.

import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import { call } from '../api.ts';
import type { Leaderboard, Me, MistakeKind, MyGames, PlayerProfile, ProfileGame, RatingHistory, Ratings, SessionReply, ShownRating } from '../protocol.ts';

/** The player this browser's session belongs to (`passkeys`: 0 for a guest, this browser only). */
export type Player = Me;

/** One row of the leaderboard: a person or a bot level (`bot:<level>`). */
export type LeaderboardEntry = Leaderboard['players'][number];

/** A player's rating change in one rated game (the profile's chart), oldest first. */
export type RatingChange = RatingHistory['changes'][number];

/** Results over a group of games (all, by number of players, by an option's value). */
export type Results = Pick<PlayerProfile, 'games' | 'wins' | 'meanPlace'>;
export type Profile = PlayerProfile;
export type { Leaderboard, MistakeKind, ProfileGame, ShownRating };

/** A game the signed-in player holds a seat in (on any device). */
export interface PlayerGame {
  gameId: string;
  seat: number;
  /** The name the seat is held under. */
  name: string;
  /** Epoch ms it finished, or was created while it is not finished. */
  at: number;
  /** A seat kept for this player (challenged by name), not taken yet. */
  invited?: boolean;
  /** Unfinished games: the player is to move. */
  yourTurn?: boolean;
  /** Unfinished games: the seat to move, or null. */
  currentSeat?: number | null;
  /** Turn-based games: days per move, and when the current move's time runs out (epoch ms). */
  moveDays?: number;
  deadline?: number | null;
}

const playerGames = (page: MyGames): PlayerGame[] =>
  page.games.flatMap((g) => {
    const seat = g.mySeats[0] ?? g.invited?.[0];
    if (seat === undefined) return [];
    return [
      {
        gameId: g.id,
        seat,
        name: g.seats[seat] ?? '',
        at: Date.parse(g.finishedAt ?? g.createdAt) || 0,
        ...(g.mySeats.length === 0 ? { invited: true } : {}),
        ...(g.yourTurn !== undefined ? { yourTurn: g.yourTurn } : {}),
        ...(g.currentSeat !== undefined ? { currentSeat: g.currentSeat } : {}),
        ...(g.pace ? { moveDays: g.pace.moveDays } : {}),
        ...(g.deadline !== undefined ? { deadline: g.deadline } : {}),
      },
    ];
  });

const enc = encodeURIComponent;

export const playerApi = {
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
  /** A page of the leaderboard, with what a person needs to be on it. */
  leaderboard: (offset: number, limit: number) => call<Leaderboard>('GET', `/api/leaderboard?limit=${limit}&offset=${offset}`),
  /** The shown ratings of up to `RATINGS_PER_CALL` players (those without one are left out). */
  ratings: async (ids: string[]) => (await call<Ratings>('GET', `/api/ratings?players=${ids.map(enc).join(',')}`)).ratings,
  ratingHistory: async (id: string) => (await call<RatingHistory>('GET', `/api/players/${enc(id)}/ratings`)).changes,
  profile: (id: string) => call<Profile>('GET', `/api/players/${enc(id)}/profile`),
};
