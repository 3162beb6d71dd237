// The WebSocket protocol, version 1 (docs/PROTOCOL.md): client frame schemas, server frames,
// error codes. Change a frame's meaning only with a new version.

import type { WsErrorCode as ErrorCode } from '../errors.ts';
import type { GameView, LastMove } from '../games/view.ts';
import type { Schema } from './schema.ts';

export const PROTOCOL_VERSION = 1;

const id: Schema = { type: ['string', 'integer'], maxLength: 64, description: 'optional; echoed as `ref` in an error frame about this frame' };

export const CLIENT_FRAMES = {
  hello: {
    type: 'object',
    required: ['type', 'v', 'gameId'],
    additionalProperties: false,
    properties: {
      type: { const: 'hello' },
      v: { type: 'integer', description: 'protocol version the client speaks' },
      gameId: { type: 'string', minLength: 1, maxLength: 64 },
      token: { type: 'string', minLength: 1, maxLength: 128, description: 'seat token; omit to watch' },
      id,
    },
  },
  move: {
    type: 'object',
    required: ['type', 'turn', 'move'],
    additionalProperties: false,
    properties: {
      type: { const: 'move' },
      turn: { type: 'integer', minimum: 0, maximum: 1000, description: 'the `turn` of the view the move was chosen on' },
      move: {
        type: 'object',
        required: ['x', 'y', 'rotation', 'meeple'],
        additionalProperties: false,
        properties: {
          x: { type: 'integer', minimum: -100, maximum: 100 },
          y: { type: 'integer', minimum: -100, maximum: 100 },
          rotation: { enum: [0, 90, 180, 270] },
          meeple: { type: ['string', 'null'], maxLength: 16 },
        },
      },
      id,
    },
  },
  ping: {
    type: 'object',
    required: ['type'],
    additionalProperties: false,
    properties: { type: { const: 'ping' }, id },
  },
  claim: {
    type: 'object',
    required: ['type'],
    additionalProperties: false,
    description: 'take your seat back from the bot standing in for you',
    properties: { type: { const: 'claim' }, id },
  },
} as const satisfies Record<string, Schema>;

export type ClientFrameType = keyof typeof CLIENT_FRAMES;

export interface HelloFrame {
  type: 'hello';
  v: number;
  gameId: string;
  token?: string;
  id?: string | number;
}
export interface MoveFrame {
  type: 'move';
  turn: number;
  move: { x: number; y: number; rotation: number; meeple: string | null };
  id?: string | number;
}
export interface PingFrame {
  type: 'ping';
  id?: string | number;
}
export interface ClaimFrame {
  type: 'claim';
  id?: string | number;
}
export type ClientFrame = HelloFrame | MoveFrame | PingFrame | ClaimFrame;

/** The codes a WebSocket error frame carries: the catalogue's (server/errors.ts). */
export type { ErrorCode };

export type ServerFrame =
  /** `history`: every move so far, oldest first, for the log (later moves come as `last`). */
  | { type: 'welcome'; v: number; gameId: string; seat: number | null; history: LastMove[] }
  | { type: 'state'; view: GameView; last: LastMove | null }
  | { type: 'error'; code: ErrorCode; message: string; ref?: string | number }
  | { type: 'pong'; ref?: string | number }
  | { type: 'bye'; reason: string };

/** The server frames' types, for docs and tests; the check below fails to compile if one is missing. */
export const SERVER_FRAME_TYPES = ['welcome', 'state', 'error', 'pong', 'bye'] as const satisfies readonly ServerFrame['type'][];
const allServerFramesListed: Exclude<ServerFrame['type'], (typeof SERVER_FRAME_TYPES)[number]> extends never ? true : never = true;
void allServerFramesListed;

/** WebSocket close codes the server uses. */
export const CLOSE = {
  shutdown: 1001,
  policy: 1008,
  tooBig: 1009,
  slowConsumer: 1013,
} as const;
