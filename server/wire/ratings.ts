// Ratings on the wire: the leaderboard, a player's history (the profile's chart) and the ratings
// shown beside names. The model and the shown number: docs/RATINGS.md.

import Type, { type Static } from 'typebox';
import { PlayerId } from './profile.ts';
import { RATINGS_PER_CALL } from './limits.ts';

const Int = Type.Integer();

export const ShownRating = Type.Object({
  playerId: PlayerId,
  rating: Type.Integer({ description: 'the rating people see: 1000 + 40·(μ − 3σ); a new player shows 1000' }),
  mu: Type.Number(),
  sigma: Type.Number(),
  games: Type.Integer({ description: 'rated games that moved the rating' }),
  opponents: Type.Integer({ description: 'distinct players (people and bot levels) met in those games' }),
  provisional: Type.Boolean({ description: 'fewer than 5 rated games: the rating is still settling (never on the leaderboard)' }),
});

/** Which rating: live games' (the default) or turn-based games' own. */
export const RatingPace = Type.Enum(['live', 'turnBased'], { description: 'which rating: live games’ (the default) or turn-based games’ own, kept apart' });

export const LeaderboardQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pace: Type.Optional(RatingPace),
  },
  { additionalProperties: false },
);

export const RatingHistoryQuery = Type.Object({ pace: Type.Optional(RatingPace) }, { additionalProperties: false });
export const Leaderboard = Type.Object({
  players: Type.Array(Type.Intersect([ShownRating, Type.Object({ place: Int, name: Type.String(), bot: Type.Boolean() })])),
  requires: Type.Object(
    {
      games: Type.Integer({ description: 'rated games (a rating that is not provisional)' }),
      opponents: Type.Integer({ description: 'distinct opponents' }),
      activeDays: Type.Integer({ description: 'a rated game within this many days' }),
    },
    { description: 'what a person needs to be listed; bot levels are listed once rated' },
  ),
});

export const RatingsQuery = Type.Object(
  { players: Type.String({ maxLength: 400, description: `player ids, comma-separated (at most ${RATINGS_PER_CALL})` }), pace: Type.Optional(RatingPace) },
  { additionalProperties: false },
);
export const Ratings = Type.Object({ ratings: Type.Array(ShownRating, { description: 'the players asked for who have a rating' }) });

export const RatingHistory = Type.Object({
  playerId: PlayerId,
  changes: Type.Array(
    Type.Object({
      gameId: Type.String(),
      at: Type.String(),
      rank: Type.Integer({ description: 'place in that game (1 = first; ties share one; leavers below everyone who stayed, the first to leave last)' }),
      before: Int,
      after: Int,
      mu: Type.Number(),
      sigma: Type.Number(),
    }),
    { description: 'oldest first: the latest 200 rated games' },
  ),
});

export type ShownRating = Static<typeof ShownRating>;
export type Leaderboard = Static<typeof Leaderboard>;
export type Ratings = Static<typeof Ratings>;
export type RatingHistory = Static<typeof RatingHistory>;
