// The WebSocket protocol (docs/PROTOCOL.md): client frames, defined once as schemas (validation,
// the docs' JSON and the TypeScript types all come from them); server frames are in wire/frames.ts.
// Change a frame's meaning only with a new version.

import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { WsErrorCode as ErrorCode } from '../errors.ts';
import { CHAT_MAX_CHARS, QUICK_IDS } from '../wire/chat.ts';
import { Figure } from '../wire/game.ts';

export { DELTA_VERSION, PROTOCOL_VERSION, SUPPORTED_VERSIONS } from '../wire/version.ts';
export type { ErrorCode };

export const MAX_ID_LENGTH = 64;
const Id = Type.Optional(Type.Union([Type.String({ maxLength: MAX_ID_LENGTH }), Type.Integer()], { description: 'echoed as `ref` in an error frame about this frame' }));
const closed = { additionalProperties: false } as const;

export const HelloFrame = Type.Object(
  {
    type: Type.Literal('hello'),
    v: Type.Integer({ description: 'protocol version the client speaks' }),
    gameId: Type.String({ minLength: 1, maxLength: 64 }),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'seat token; omit to watch' })),
    id: Id,
  },
  closed,
);

export const MoveFrame = Type.Object(
  {
    type: Type.Literal('move'),
    turn: Type.Integer({ minimum: 0, maximum: 1000, description: 'the `turn` of the view the move was chosen on' }),
    move: Type.Object(
      {
        x: Type.Integer({ minimum: -100, maximum: 100 }),
        y: Type.Integer({ minimum: -100, maximum: 100 }),
        rotation: Type.Enum([0, 90, 180, 270]),
        meeple: Type.Union([Type.String({ maxLength: 16 }), Type.Null()]),
        figure: Type.Optional(Figure),
        returnAbbot: Type.Optional(Type.Literal(true)),
      },
      closed,
    ),
    id: Id,
  },
  closed,
);

export const PingFrame = Type.Object({ type: Type.Literal('ping'), id: Id }, closed);
export const ClaimFrame = Type.Object({ type: Type.Literal('claim'), id: Id }, { ...closed, description: 'take your seat back from the bot standing in for you' });

export const HintFrame = Type.Object(
  { type: Type.Literal('hint'), turn: Type.Integer({ minimum: 0, maximum: 1000, description: 'the `turn` of the view the hint is for' }), id: Id },
  { ...closed, description: 'ask for the strongest move for your tile (games with `view.hints`)' },
);

export const ChatFrame = Type.Object(
  {
    type: Type.Literal('chat'),
    quick: Type.Optional(Type.Enum(QUICK_IDS, { description: 'a quick message; give this or `text`' })),
    // The schema bounds the raw string (escapes and spaces included); the trimmed text is checked against CHAT_MAX_CHARS.
    text: Type.Optional(Type.String({ minLength: 1, maxLength: CHAT_MAX_CHARS * 2, description: `free text, at most ${CHAT_MAX_CHARS} characters once trimmed` })),
    id: Id,
  },
  { ...closed, description: 'table talk from a seated player' },
);

export const SyncFrame = Type.Object(
  { type: Type.Literal('sync'), id: Id },
  { ...closed, description: 'version 2 on: send the whole view again (a `delta` did not follow the view this client holds)' },
);

export const CLIENT_FRAMES = { hello: HelloFrame, move: MoveFrame, ping: PingFrame, claim: ClaimFrame, hint: HintFrame, chat: ChatFrame, sync: SyncFrame };
export type ClientFrameType = keyof typeof CLIENT_FRAMES;
export type HelloFrame = Static<typeof HelloFrame>;
export type MoveFrame = Static<typeof MoveFrame>;
export type HintFrame = Static<typeof HintFrame>;
export type ChatFrame = Static<typeof ChatFrame>;
export type ClientFrame = HelloFrame | MoveFrame | HintFrame | Static<typeof PingFrame> | Static<typeof ClaimFrame> | ChatFrame | Static<typeof SyncFrame>;

const validators = Object.fromEntries(Object.entries(CLIENT_FRAMES).map(([type, schema]) => [type, Compile(schema)])) as Record<ClientFrameType, ReturnType<typeof Compile>>;

/** The first problem with a frame of a known type, as "field: what is wrong", or null. */
export function frameProblem(type: ClientFrameType, frame: unknown): string | null {
  // Check allocates nothing; the error list is built only for a frame that fails it.
  if (validators[type].Check(frame)) return null;
  for (const error of validators[type].Errors(frame)) {
    const at = error.instancePath.slice(1).replaceAll('/', '.');
    const prefix = at ? `${at}.` : '';
    if (error.keyword === 'boolean') continue; // the additionalProperties error that follows names the key
    if (error.keyword === 'additionalProperties') return `${prefix}${(error.params as { additionalProperties: string[] }).additionalProperties[0]} is not allowed`;
    if (error.keyword === 'required') return `${prefix}${(error.params as { requiredProperties: string[] }).requiredProperties[0]} is required`;
    return `${at || 'frame'} ${error.message}`;
  }
  return null;
}

export type { ServerFrame } from '../wire/frames.ts';
export { SERVER_FRAME_TYPES } from '../wire/frames.ts';
