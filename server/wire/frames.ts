// The server → client WebSocket frames (docs/PROTOCOL.md §4), defined once as schemas: the
// server's and the browser client's types come from them, and test/server-frames.test.ts checks
// the frames of real games against them.

import Type, { type Static } from 'typebox';
import { WS_ERROR_CODES } from '../errors.ts';
import { QUICK_IDS, type ChatMessage as ChatMessageShape } from './chat.ts';
import { BoardTile, GameView, LastMove, Move } from './game.ts';

const Ref = Type.Optional(Type.Union([Type.String(), Type.Integer()], { description: 'the `id` of the client frame this answers' }));
const Seq = Type.Integer({ minimum: 0, description: "the game's frame counter: each broadcast adds one (version 2 on)" });
const closed = { additionalProperties: false } as const;

export const ChatMessage = Type.Object(
  {
    seat: Type.Integer(),
    name: Type.String(),
    quick: Type.Optional(Type.Enum(QUICK_IDS)),
    text: Type.Optional(Type.String()),
    at: Type.Number({ description: 'when the server accepted it (epoch ms)' }),
  },
  closed,
);

export const WelcomeFrame = Type.Object(
  {
    type: Type.Literal('welcome'),
    v: Type.Integer({ description: 'the protocol version of this connection (the one `hello` asked for)' }),
    gameId: Type.String(),
    seat: Type.Union([Type.Integer(), Type.Null()]),
    history: Type.Array(LastMove, { description: 'every move so far, oldest first, for the log (later moves come as `last`)' }),
    chat: Type.Array(ChatMessage, { description: 'the recent table talk (in memory), oldest first' }),
    instance: Type.Optional(Type.String({ description: 'in a cluster, the instance that plays the game (reconnect with `/ws?instance=`)' })),
  },
  closed,
);

export const ChatServerFrame = Type.Object({ type: Type.Literal('chat'), message: ChatMessage }, closed);

export const StateFrame = Type.Object(
  { type: Type.Literal('state'), view: GameView, last: Type.Union([LastMove, Type.Null()]), seq: Type.Optional(Seq) },
  { ...closed, description: 'the whole view; `seq` from version 2 on' },
);

/** A view without its board: the part of a `delta` that replaces the previous view's. */
export const DeltaView = Type.Omit(GameView, ['board']);

export const DeltaFrame = Type.Object(
  {
    type: Type.Literal('delta'),
    seq: Seq,
    view: DeltaView,
    from: Type.Integer({ minimum: 0, description: 'how many tiles the previous view’s board held: `placed` follows them' }),
    placed: Type.Array(BoardTile, { description: 'tiles placed since the previous frame, in order' }),
    last: Type.Union([LastMove, Type.Null()]),
  },
  { ...closed, description: 'version 2 on: what changed since the frame numbered `seq - 1`' },
);

export const ErrorFrame = Type.Object({ type: Type.Literal('error'), code: Type.Enum(WS_ERROR_CODES), message: Type.String(), ref: Ref }, closed);
export const PongFrame = Type.Object({ type: Type.Literal('pong'), ref: Ref }, closed);
export const HintServerFrame = Type.Object(
  { type: Type.Literal('hint'), turn: Type.Integer(), move: Move, ref: Ref },
  { ...closed, description: "the answer to `hint`: the expert's move for that turn's tile" },
);
export const ByeFrame = Type.Object({ type: Type.Literal('bye'), reason: Type.String() }, closed);

export const SERVER_FRAMES = {
  welcome: WelcomeFrame,
  state: StateFrame,
  delta: DeltaFrame,
  chat: ChatServerFrame,
  error: ErrorFrame,
  pong: PongFrame,
  hint: HintServerFrame,
  bye: ByeFrame,
};
export type ServerFrameType = keyof typeof SERVER_FRAMES;
export const SERVER_FRAME_TYPES = Object.keys(SERVER_FRAMES) as ServerFrameType[];

export type WelcomeFrame = Static<typeof WelcomeFrame>;
export type StateFrame = Static<typeof StateFrame>;
export type DeltaView = Static<typeof DeltaView>;
export type DeltaFrame = Static<typeof DeltaFrame>;
export type ServerFrame = { [K in ServerFrameType]: Static<(typeof SERVER_FRAMES)[K]> }[ServerFrameType];

// chat.ts keeps its plain interface (the client bundles its constants without TypeBox): the two must agree.
const chatFits: [ChatMessageShape, Static<typeof ChatMessage>] extends [Static<typeof ChatMessage>, ChatMessageShape] ? true : never = true;
void chatFits;
