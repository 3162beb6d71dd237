// A WebSocket accepted at /ws as the peer its Connection serves, with the heartbeat's state.

import type { WebSocket } from 'ws';
import type { Peer, PeerHandler } from '../directory/peer.ts';

export class SocketPeer implements Peer {
  readonly socket: WebSocket;
  /** Cleared by the heartbeat's ping, set by the pong: false at the next beat = dead peer. */
  alive = true;

  constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('pong', () => (this.alive = true));
  }

  /** Hands the socket's frames and its close to `handler`. */
  serve(handler: PeerHandler): void {
    this.socket.on('message', (data, isBinary) => handler.receive(data, isBinary));
    this.socket.on('close', () => handler.closed());
  }

  get isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  send(text: string): void {
    this.socket.send(text);
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  terminate(): void {
    this.socket.terminate();
  }

  ping(): void {
    this.socket.ping();
  }
}
