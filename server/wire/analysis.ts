// Game analysis on the wire, defined once: the stored result (GET /api/games/:id/analysis), the
// progress answer while it runs (POST, GET, and the server-sent events stream).

import Type, { type Static } from 'typebox';
import { Move } from './game.ts';

const Int = Type.Integer();

export const AnalysedMove = Type.Object({
  moveIndex: Type.Integer({ description: 'index of the placement in the record’s moves' }),
  seat: Int,
  tile: Type.String(),
  played: Move,
  best: Move,
  playedValue: Type.Union([Type.Number(), Type.Null()], { description: 'mean lead after the played move over the shared determinizations; null when it is the expert’s move' }),
  bestValue: Type.Union([Type.Number(), Type.Null()]),
  loss: Type.Number({ description: 'expected points lost against the expert’s move (≥ 0)' }),
});

export const SeatAnalysis = Type.Object({
  seat: Int,
  name: Type.String(),
  moves: Int,
  pointsLost: Type.Number(),
  /** Moves that lost at least MISTAKE_POINTS. */
  mistakes: Int,
  bestMoves: Type.Integer({ description: 'moves the expert would have played too' }),
});

export const GameAnalysis = Type.Object(
  {
    gameId: Type.String(),
    status: Type.Literal('done'),
    engine: Type.Object({ level: Type.Literal('expert'), samples: Int, version: Int }),
    seats: Type.Array(SeatAnalysis),
    moves: Type.Array(AnalysedMove),
    createdAt: Type.String(),
  },
  { description: 'every placement judged from its mover’s view (never the bag order) against the expert search' },
);

export const AnalysisProgress = Type.Object(
  {
    gameId: Type.String(),
    status: Type.Enum(['queued', 'running', 'failed'], { description: '`failed`: the analysis could not finish (`message` says why); asking again starts it afresh' }),
    position: Type.Integer({ description: 'analyses ahead of this one in the queue (0 while it runs)' }),
    done: Type.Integer({ description: 'positions analysed' }),
    total: Type.Integer({ description: 'positions (placements) in the game' }),
    message: Type.Optional(Type.String()),
  },
  { description: 'an analysis waiting or running; it uses idle bot workers only, so it may wait while bots play' },
);

export const AnalysisAnswer = Type.Union([GameAnalysis, AnalysisProgress]);

export const AnalysisNotAsked = Type.Object(
  { gameId: Type.String(), status: Type.Literal('none') },
  { description: 'nobody has asked for this finished game’s analysis: answered only to `GET …/analysis?orNone=true`, in place of `404 no_analysis`, so a page can look without an error' },
);

export const AnalysisQuery = Type.Object({
  orNone: Type.Optional(Type.Boolean({ description: 'answer `200 {status: "none"}` rather than `404 no_analysis` for a finished game nobody asked to analyse' })),
});

export type AnalysedMove = Static<typeof AnalysedMove>;
export type SeatAnalysis = Static<typeof SeatAnalysis>;
export type GameAnalysis = Static<typeof GameAnalysis>;
export type AnalysisProgress = Static<typeof AnalysisProgress>;
export type AnalysisAnswer = Static<typeof AnalysisAnswer>;
export type AnalysisNotAsked = Static<typeof AnalysisNotAsked>;
