// A player's profile page (GET /api/players/:id/profile): who they are, their recent games, their
// results and what the analyses of their games found. server/profiles/ builds it.

import Type, { type Static } from 'typebox';
import { FinishedPlayer } from './api.ts';
import { Rules } from './game.ts';

const Int = Type.Integer();
const MeanPlace = Type.Union([Type.Number(), Type.Null()], { description: 'mean finishing place (1 = first; tied seats share the better place); null with no games' });

/** A person's id (`p_` and 22 base64url characters) or a bot level's (`bot:<level>`). */
export const PLAYER_ID_PATTERN = '^(p_[A-Za-z0-9_-]{22}|bot:[a-z]+)$';

export const PlayerId = Type.String({
  minLength: 3,
  maxLength: 40,
  pattern: PLAYER_ID_PATTERN,
  description: 'a player id: `p_` and 22 base64url characters, or a bot level’s `bot:<level>`',
});
export const PlayerParams = Type.Object({ id: PlayerId });

export const ProfileGame = Type.Object({
  id: Type.String({ description: 'the game: its replay is /replay/{id}, its analysis GET /api/games/{id}/analysis' }),
  finishedAt: Type.String(),
  rules: Rules,
  rated: Type.Boolean(),
  abandoned: Type.Boolean(),
  players: Type.Array(FinishedPlayer),
  seat: Int,
  place: Int,
  analysed: Type.Boolean({ description: 'an analysis of the game is stored' }),
});

export const Results = Type.Object({ games: Int, wins: Int, meanPlace: MeanPlace });

/** What a mistake was, from the played and the best move (server/profiles/mistakes.ts decides). */
export const MISTAKE_KINDS = [
  /** One of the two took the abbot back and the other did not. */
  'abbot_timing',
  /** The best move placed a figure; the played one placed none. */
  'figure_withheld',
  /** The played move placed a figure; the best one placed none. */
  'figure_wasted',
  /** Both placed a figure, on different kinds of feature (road, city, monastery, field, garden). */
  'wrong_feature',
  /** Same kind of feature, another figure (follower, large follower, abbot). */
  'wrong_figure',
  /** The same figure choice; the tile (or the figure on it) went to a worse spot. */
  'tile_placement',
] as const;
export type MistakeKind = (typeof MISTAKE_KINDS)[number];
export const MistakeKind = Type.Enum(MISTAKE_KINDS);

export const PlayerProfile = Type.Object({
  id: PlayerId,
  name: Type.String({ description: 'the name the player held their latest seat under' }),
  games: Int,
  wins: Int,
  meanPlace: MeanPlace,
  byPlayers: Type.Array(Type.Object({ players: Int, games: Int, wins: Int, meanPlace: MeanPlace })),
  byOption: Type.Array(Type.Object({ option: Type.String(), value: Type.String(), games: Int, wins: Int, meanPlace: MeanPlace }), {
    description: 'one row per option value played: tinyCity, river, innsCathedrals, abbot, rated ("on"/"off"), farmers ("1st"/"2nd"/"3rd")',
  }),
  analysis: Type.Object({
    games: Type.Integer({ description: 'analysed games the numbers rest on' }),
    moves: Type.Integer({ description: 'the player’s analysed moves in them' }),
    pointsLostPerMove: Type.Union([Type.Number(), Type.Null()], { description: 'mean expected points lost per move against the expert; null with no analysed move' }),
    mistakes: Type.Integer({ description: 'moves that lost 3 points or more' }),
    byKind: Type.Record(Type.String(), Int, { description: 'mistakes by kind (docs/PROTOCOL.md section 9)' }),
    commonMistake: Type.Union([MistakeKind, Type.Null()]),
  }),
  recent: Type.Array(ProfileGame, { description: 'the latest finished games, newest first' }),
  window: Type.Integer({ description: 'the numbers count at most this many of the player’s latest finished games' }),
});

export type PlayerProfile = Static<typeof PlayerProfile>;
export type ProfileGame = Static<typeof ProfileGame>;
