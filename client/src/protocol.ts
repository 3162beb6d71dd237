// The wire shapes the client uses (docs/PROTOCOL.md, WebSocket protocol v1 and the HTTP API):
// the server's own types, imported as types only, so the two cannot drift; plus the HTTP
// answers the client reads.

export { PROTOCOL_VERSION } from '../../server/wire/version.ts';
export type { ErrorCode, ServerFrame } from '../../server/ws/protocol.ts';
export type { GameStatus, GameView, LastMove, Placement, Points, SeatView } from '../../server/wire/game.ts';
export type { BoardTile, Follower, Move } from '../../bot-engine/game.ts';
export type { Rules, ScoreEvent } from '../../bot-engine/rules.ts';
import type { GameStatus, SeatView } from '../../server/wire/game.ts';
import type { Rules } from '../../bot-engine/rules.ts';
export { BOT_LEVELS, LEVEL_SUMMARY, type BotLevel } from '../../bot-engine/bots/levels.ts';

export interface GameSummary {
  id: string;
  createdAt?: string;
  status: GameStatus;
  rules?: Rules;
  turn?: number;
  seats: SeatView[];
  openSeats?: number[];
  currentSeat?: number | null;
  tile?: string | null;
  tilesLeft?: number;
  botThinking?: boolean;
}
