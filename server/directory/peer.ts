// A client's end of a connection as the Connection serving it sees it: a WebSocket accepted here,
// or a client connected to another instance whose frames come through the cluster. The holder of
// the peer hands its frames and its close to the connection (PeerHandler).

import { CLOSE } from '../wire/close.ts';
import type { ServerFrame } from '../wire/frames.ts';

type ByeFrame = Extract<ServerFrame, { type: 'bye' }>;

/** What a peer's frames arrive as (ws's RawData). */
export type PeerData = Buffer | ArrayBuffer | Buffer[];

export interface Peer {
  /** Frames sent now reach the client. */
  readonly isOpen: boolean;
  /** Bytes queued for the client and not yet sent. */
  readonly bufferedAmount: number;
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Dropped without a close frame (a dead or hostile client). */
  terminate(): void;
}

/** The connection serving a peer, as the peer's holder calls it. */
export interface PeerHandler {
  receive(data: PeerData, isBinary: boolean): void;
  /** The peer is gone: nothing more is sent to it. */
  closed(): void;
}

/** A connection's path to the instance that plays its game: every frame goes there as it is. */
export interface RemoteLink {
  forward(text: string): void;
  /** The client left: the far end lets go of it. */
  closed(): void;
}

/** Why the server lets a client go: the close code its retry goes by (wire/close.ts), the reason
 * its `bye` frame gives, and the shorter one of the close frame (at most 123 bytes). */
const GOODBYES = {
  shutdown: { code: CLOSE.shutdown, bye: 'server shutting down', close: 'server shutting down' },
  moved: { code: CLOSE.moved, bye: 'game moved to another instance: reconnect', close: 'game moved: reconnect' },
} as const;

export type Goodbye = keyof typeof GOODBYES;

/** A `bye` frame saying why, then the close. `send` is the sender's own way of sending when it
 * has one (a connection's, which drops a slow consumer), else the peer's. */
export function goodbye(peer: Peer, why: Goodbye, send: (text: string) => void = (text) => peer.send(text)): void {
  const { code, bye, close } = GOODBYES[why];
  send(JSON.stringify({ type: 'bye', reason: bye } satisfies ByeFrame));
  peer.close(code, close);
}
