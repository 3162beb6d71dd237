// The wire shapes the client uses (docs/PROTOCOL.md, the WebSocket protocol and the HTTP API):
// the server's own types, imported as types only, so the two cannot drift.

export { PROTOCOL_VERSION } from '../../server/wire/version.ts';
export type { ErrorCode } from '../../server/ws/protocol.ts';
export type { ServerFrame } from '../../server/wire/frames.ts';
export { ViewTracker } from '../../server/wire/delta.ts';
export type { ClockView, GameStatus, GameView, LastMove, Placement, Points, SeatView } from '../../server/wire/game.ts';
export type { BoardTile, Follower, Move } from '../../bot-engine/game.ts';
export type { Rules, ScoreEvent } from '../../bot-engine/rules.ts';
export { BOT_LEVELS, LEVEL_SUMMARY, type BotLevel } from '../../bot-engine/bots/levels.ts';
export type { FinishedGames, GameSummary, OpenGames, SeatGrant, SeatRequest } from '../../server/wire/api.ts';
export type { AnalysedMove, AnalysisAnswer, AnalysisNotAsked, AnalysisProgress, GameAnalysis } from '../../server/wire/analysis.ts';
export { CHAT_MAX_CHARS, QUICK_IDS, QUICK_MESSAGES, type ChatMessage, type QuickId } from '../../server/wire/chat.ts';
export type { Me, MyGames, SessionReply } from '../../server/wire/players.ts';
export type { MistakeKind, PlayerProfile, ProfileGame } from '../../server/wire/profile.ts';
export type { Leaderboard, RatingHistory, Ratings, ShownRating } from '../../server/wire/ratings.ts';
export { BOT_DISPLAY_NAMES, MAX_NAME_LENGTH, RATINGS_PER_CALL } from '../../server/wire/limits.ts';
export type { Device, Devices, PushGame, PushKey, PushMessage, Waiting } from '../../server/wire/push.ts';
