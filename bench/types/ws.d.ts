// Minimal types for the `ws` client the load generator uses (ws ships no type declarations).
declare module 'ws' {
  import type { EventEmitter } from 'node:events';
  class WebSocket extends EventEmitter {
    constructor(url: string, options?: { perMessageDeflate?: boolean; handshakeTimeout?: number; headers?: Record<string, string> });
    static readonly OPEN: number;
    readonly readyState: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
  }
  export default WebSocket;
  export { WebSocket };
}
