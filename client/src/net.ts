// One game's WebSocket: hello with the seat token, whole views to the game screen (protocol version
// 2: a whole view, then deltas applied to it; a gap asks for the whole view again), and
// reconnection by itself (backoff with jitter, retry.ts) after a drop, a server restart, a game
// moving between instances, a refused hello that will pass, or a sleeping tab.
// A client-level ping notices a dead connection the browser has not noticed yet.

import { PROTOCOL_VERSION, type ChatMessage, type ErrorCode, type GameView, type LastMove, type Move, type QuickId, type ServerFrame, ViewTracker } from './protocol.ts';
import { backoffMs, closeRetry, helloRetry } from './retry.ts';

export type ConnState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface GameSocketEvents {
  onWelcome?(seat: number | null, history: LastMove[], chat: ChatMessage[]): void;
  onChat?(message: ChatMessage): void;
  onState?(view: GameView, last: LastMove | null): void;
  onError?(code: ErrorCode, message: string): void;
  /** The answer to `sendHint`: the expert's move for that turn. */
  onHint?(turn: number, move: Move): void;
  onConnState?(state: ConnState, detail?: string): void;
}

export class GameSocket {
  private ws: WebSocket | null = null;
  private readonly gameId: string;
  private token: string | undefined;
  private readonly events: GameSocketEvents;
  private attempts = 0;
  private stopped = false;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private pongDue: number | undefined;
  private nextId = 1;
  /** The instance that played the game at the last welcome (a cluster): reconnect straight to it. */
  private instance: string | undefined;
  /** The view the deltas apply to; each connection starts from a whole one. */
  private readonly views = new ViewTracker();
  state: ConnState = 'connecting';
  /** Why the state is what it is (a reconnect's cause). */
  private detail: string | undefined;

  constructor(gameId: string, token: string | undefined, events: GameSocketEvents) {
    this.gameId = gameId;
    this.token = token;
    this.events = events;
    this.connect();
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
  }

  /** Drops the seat (a bad token): later connections watch. */
  dropToken(): void {
    this.token = undefined;
  }

  private readonly wake = () => {
    if (this.stopped || document.visibilityState === 'hidden') return;
    if (this.state === 'reconnecting') {
      clearTimeout(this.retryTimer);
      this.connect();
    } else if (this.state === 'open') {
      this.ping();
    }
  };

  private set(state: ConnState, detail?: string): void {
    this.state = state;
    this.detail = detail;
    this.events.onConnState?.(state, detail);
  }

  private url(): string {
    const direct = this.instance ? `?instance=${encodeURIComponent(this.instance)}` : '';
    return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${direct}`;
  }

  private connect(): void {
    if (this.stopped) return;
    // A retry keeps saying why it retries (it flickered to a bare "reconnecting…" each attempt).
    if (this.attempts === 0) this.set('connecting');
    else this.set('reconnecting', this.detail);
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry('could not open a connection');
      return;
    }
    this.ws = ws;
    this.views.reset();
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      ws.send(JSON.stringify({ type: 'hello', v: PROTOCOL_VERSION, gameId: this.gameId, ...(this.token ? { token: this.token } : {}), id: 'hello' }));
      this.startPing();
    });
    ws.addEventListener('message', (e) => {
      if (this.ws !== ws) return;
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(e.data));
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener('close', (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopPing();
      if (this.stopped) return;
      // The game moved: its new instance is not known, the load balancer finds it.
      if (e.code === 1012) this.instance = undefined;
      this.retry(closeRetry(e.code, e.reason), e.code);
    });
  }

  private retry(detail: string, closeCode?: number): void {
    if (this.stopped) return;
    this.attempts++;
    this.set('reconnecting', detail);
    const delay = backoffMs(this.attempts, Math.random, closeCode);
    clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  private onFrame(frame: ServerFrame): void {
    switch (frame.type) {
      case 'welcome':
        this.attempts = 0;
        this.instance = frame.instance;
        this.set('open');
        this.events.onWelcome?.(frame.seat, frame.history ?? [], frame.chat ?? []);
        return;
      case 'chat':
        this.events.onChat?.(frame.message);
        return;
      case 'state':
        this.events.onState?.(this.views.state(frame), frame.last);
        return;
      case 'delta': {
        const view = this.views.delta(frame);
        if (view === 'sync') this.sendFrame({ type: 'sync', id: `s${this.nextId++}` });
        else if (view) this.events.onState?.(view, frame.last);
        return;
      }
      case 'pong':
        this.pongDue = undefined;
        return;
      case 'hint':
        this.events.onHint?.(frame.turn, frame.move);
        return;
      case 'bye':
        this.set('reconnecting', frame.reason);
        return;
      case 'error': {
        // A refused hello that will pass (a takeover, an outage): this socket is done, try again.
        const retry = frame.ref === 'hello' ? helloRetry(frame.code) : null;
        if (retry) {
          this.abandonSocket();
          this.retry(retry);
          return;
        }
        if (frame.code === 'bad_token') {
          // The seat is not ours (any more): watch instead.
          this.token = undefined;
          this.events.onError?.(frame.code, frame.message);
          this.ws?.close();
          return;
        }
        if (frame.code === 'unknown_game') {
          this.stopped = true;
          this.set('closed', frame.message);
          this.events.onError?.(frame.code, frame.message);
          this.ws?.close();
          return;
        }
        this.events.onError?.(frame.code, frame.message);
        return;
      }
    }
  }

  /** Closes the current socket without its close event starting another retry. */
  private abandonSocket(): void {
    const ws = this.ws;
    this.ws = null;
    this.stopPing();
    ws?.close();
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = window.setInterval(() => this.ping(), 15000);
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    this.pongDue = undefined;
  }

  private ping(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (this.pongDue !== undefined && Date.now() > this.pongDue) {
      // No answer to the last ping: the connection is dead even if the browser thinks not.
      this.abandonSocket();
      this.retry('no answer from the server');
      return;
    }
    if (this.pongDue === undefined) this.pongDue = Date.now() + 10000;
    ws.send(JSON.stringify({ type: 'ping', id: `p${this.nextId++}` }));
  }

  sendMove(turn: number, move: Move): boolean {
    return this.sendFrame({ type: 'move', turn, move, id: `m${this.nextId++}` });
  }

  sendHint(turn: number): boolean {
    return this.sendFrame({ type: 'hint', turn, id: `h${this.nextId++}` });
  }

  /** Takes the seat back from the bot standing in for this player. */
  sendClaim(): boolean {
    return this.sendFrame({ type: 'claim', id: `c${this.nextId++}` });
  }

  /** False when not connected: the caller says so. */
  private sendFrame(frame: object): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }

  /** Table talk: a quick message id or free text. */
  sendChat(content: { quick: QuickId } | { text: string }): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify({ type: 'chat', ...content, id: `c${this.nextId++}` }));
    return true;
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.stopPing();
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }
}
