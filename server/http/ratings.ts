// Ratings over HTTP: the leaderboard, the ratings beside names, a player's history.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CodedError } from '../errors.ts';
import { displayRating, LEADERBOARD_ACTIVE_DAYS, LEADERBOARD_OPPONENTS, PROVISIONAL_GAMES } from '../ratings/model.ts';
import type { PlayerRating } from '../ratings/store.ts';
import { PLAYER_ID_PATTERN, PlayerParams } from '../wire/profile.ts';
import { Leaderboard, LeaderboardQuery, RatingHistory, RatingHistoryQuery, Ratings, RatingsQuery, type ShownRating } from '../wire/ratings.ts';
import { RATINGS_PER_CALL } from '../wire/limits.ts';

const error = { $ref: 'Error#' } as const;
const HISTORY = 200;
const PLAYER_ID = new RegExp(PLAYER_ID_PATTERN);

export function shown(r: PlayerRating): ShownRating {
  return { playerId: r.playerId, rating: displayRating(r), mu: r.mu, sigma: r.sigma, games: r.games, opponents: r.opponents, provisional: r.games < PROVISIONAL_GAMES };
}

async function routes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/leaderboard',
    {
      schema: {
        tags: ['players'],
        summary: 'Rated players, best first by the shown rating: bot levels, and people with a settled rating, several opponents and a recent rated game',
        querystring: LeaderboardQuery,
        response: { 200: Leaderboard, 400: error },
      },
    },
    async (request) => {
      const { limit = 50, offset = 0, pace = 'live' } = request.query;
      const rows = await app.ratings.leaderboard(limit, offset, undefined, pace);
      return {
        players: rows.map((r, i) => ({ ...shown(r), place: offset + i + 1, name: r.name, bot: r.playerId.startsWith('bot:') })),
        requires: { games: PROVISIONAL_GAMES, opponents: LEADERBOARD_OPPONENTS, activeDays: LEADERBOARD_ACTIVE_DAYS },
      };
    },
  );
  app.get(
    '/api/ratings',
    { schema: { tags: ['players'], summary: 'The ratings of a few players, to show beside their names', querystring: RatingsQuery, response: { 200: Ratings, 400: error } } },
    async (request) => {
      const ids = [...new Set(request.query.players.split(','))];
      if (ids.length > RATINGS_PER_CALL || ids.some((id) => !PLAYER_ID.test(id)))
        throw new CodedError('bad_request', `players: up to ${RATINGS_PER_CALL} player ids (\`p_…\` or \`bot:<level>\`), comma-separated`);
      const ratings = await app.ratings.ratings(ids, request.query.pace);
      return { ratings: ids.flatMap((id) => (ratings.has(id) ? [shown(ratings.get(id)!)] : [])) };
    },
  );
  app.get(
    '/api/players/:id/ratings',
    {
      schema: {
        tags: ['players'],
        summary: "A player's rating after each rated game (the profile's chart); `?pace=turnBased`: the turn-based rating's",
        params: PlayerParams,
        querystring: RatingHistoryQuery,
        response: { 200: RatingHistory, 400: error },
      },
    },
    async (request) => {
      const changes = await app.ratings.history(request.params.id, HISTORY, request.query.pace);
      return {
        playerId: request.params.id,
        changes: changes.map((c) => ({ gameId: c.gameId, at: c.at, rank: c.rank, before: displayRating(c.before), after: displayRating(c.after), mu: c.after.mu, sigma: c.after.sigma })),
      };
    },
  );
}

/** Encapsulated, refused at boot without the ratings. */
export const ratingRoutes = fp(routes, { name: 'rating-routes', fastify: '5.x', encapsulate: true, dependencies: ['ratings'] });
