// One client connection: frame limits, rate limit, validation, and the seat it plays. Its peer is
// a WebSocket here or one held by another instance; its game is played here, or (reached through
// the directory) its frames go as they are to where it is played.
// Every rejected frame gets a typed error frame and changes nothing.

import type { Logger } from 'pino';
import type { GameDirectory, Reached } from '../directory/directory.ts';
import { type Goodbye, goodbye, type Peer, type PeerData, type PeerHandler, type RemoteLink } from '../directory/peer.ts';
import { CodedError } from '../errors.ts';
import type { Room, Subscriber } from '../games/room.ts';
import type { ViewFrames } from '../games/view.ts';
import type { ChatMessage } from '../wire/chat.ts';
import type { Metrics } from '../metrics.ts';
import type { CauseBudgets } from '../log.ts';
import { TokenBucket } from '../token-bucket.ts';
import { CLOSE } from '../wire/close.ts';
import {
  type ChatFrame,
  CLIENT_FRAMES,
  type ClientFrame,
  type ClientFrameType,
  type ErrorCode,
  type HelloFrame,
  type HintFrame,
  type MoveFrame,
  DELTA_VERSION,
  MAX_ID_LENGTH,
  PROTOCOL_VERSION,
  SUPPORTED_VERSIONS,
  type ServerFrame,
  frameProblem,
} from './protocol.ts';

export interface ConnectionOptions {
  directory: GameDirectory;
  metrics: Metrics;
  log: Logger;
  /** Lines a client can trigger: one per cause per interval, shared by every connection. */
  logBudget: CauseBudgets;
  maxMessageBytes: number;
  messagesPerSecond: number;
  burst: number;
  maxBufferedBytes: number;
  watchersPerGame: number;
  /** The signed-in player the upgrade carried (its session cookie): their seat needs no token. */
  playerId?: string | null;
}

export class Connection implements Subscriber, PeerHandler {
  readonly peer: Peer;
  seat: number | null = null;
  /** The protocol version the hello asked for. */
  private version = PROTOCOL_VERSION;
  /** Version 2 on: a whole view was sent since the hello (or the last `sync`), so deltas follow it. */
  private synced = false;
  private room: Room | null = null;
  private readonly options: ConnectionOptions;
  private log: Logger;
  private readonly bucket: TokenBucket;
  private rejectedInARow = 0;
  /** Frames are handled one after another: a move waits for the hello (and the write) before it. */
  private handling: Promise<void> = Promise.resolve();
  /** Set when the game is played on another instance: every frame goes there as it is. */
  private link: RemoteLink | null = null;

  constructor(peer: Peer, options: ConnectionOptions) {
    this.peer = peer;
    this.options = options;
    this.log = options.log;
    this.bucket = new TokenBucket(options.burst, 1000 / options.messagesPerSecond, performance.now());
  }

  closed(): void {
    this.room?.unsubscribe(this);
    this.link?.closed();
  }

  moved(): void {
    this.room = null;
    this.goodbye('moved');
  }

  /** Lets the client go, its `bye` frame sent the way every frame is (a slow consumer is dropped). */
  goodbye(why: Goodbye): void {
    goodbye(this.peer, why, (text) => this.sendText(text));
  }

  /** The game changed: the frame this connection's version takes, serialised once per view. */
  update(frames: ViewFrames): void {
    if (this.version < DELTA_VERSION) return this.sendText(frames.state(false));
    this.sendText(this.synced ? frames.delta() : frames.state(true));
    this.synced = true;
  }

  chat(message: ChatMessage): void {
    this.send({ type: 'chat', message });
  }

  fault(message: string): void {
    this.error('internal', message);
  }

  send(frame: ServerFrame): void {
    this.sendText(JSON.stringify(frame));
  }

  private sendText(text: string): void {
    const peer = this.peer;
    if (!peer.isOpen) return;
    // A peer that does not read its frames must not grow our memory without bound.
    if (peer.bufferedAmount > this.options.maxBufferedBytes) {
      this.options.logBudget.write(this.log, 'warn', { bufferedAmount: peer.bufferedAmount }, 'slow consumer dropped');
      peer.terminate();
      return;
    }
    peer.send(text);
  }

  private error(code: ErrorCode, message: string, ref?: string | number): void {
    this.options.metrics.wsErrors.inc({ code });
    this.send({ type: 'error', code, message, ...(ref === undefined ? {} : { ref }) });
  }

  receive(data: PeerData, isBinary: boolean): void {
    if (!this.bucket.take(performance.now())) {
      // A client that keeps sending while limited is not listening: drop it.
      if (++this.rejectedInARow > this.options.burst) {
        this.peer.close(CLOSE.policy, 'rate limit exceeded');
        return;
      }
      return this.error('rate_limited', `at most ${this.options.messagesPerSecond} messages a second (burst ${this.options.burst})`);
    }
    this.rejectedInARow = 0;
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;
    if (size > this.options.maxMessageBytes) return this.error('too_large', `a message may hold at most ${this.options.maxMessageBytes} bytes, got ${size}`);
    if (isBinary) return this.error('bad_frame', 'frames are JSON text, not binary');
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
    // Played on another instance: the connection there validates and answers.
    if (this.link) return this.link.forward(text);
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return this.error('bad_json', 'the frame is not valid JSON');
    }
    const ref = validId(frame);
    const type = frame && typeof frame === 'object' && 'type' in frame ? frame.type : undefined;
    if (typeof type !== 'string' || !Object.hasOwn(CLIENT_FRAMES, type)) return this.error('bad_frame', `type must be one of ${Object.keys(CLIENT_FRAMES).join(', ')}`, ref);
    const problem = frameProblem(type as ClientFrameType, frame);
    if (problem) return this.error('bad_frame', problem, ref);
    this.handling = this.boundary(
      this.handling.then(() => this.dispatch(frame as ClientFrame)),
      ref,
    );
  }

  /** The one boundary of a frame's work, whichever path it takes: a failure is logged (with the
   * game id once joined, within the log budget) and answered `internal`; it never escapes. */
  private boundary(work: Promise<void>, ref: string | number | undefined): Promise<void> {
    return work.catch((e: unknown) => {
      this.options.logBudget.write(this.log, 'error', { err: e }, 'frame handler failed');
      this.error('internal', 'the server could not handle this frame', ref);
    });
  }

  private async dispatch(frame: ClientFrame): Promise<void> {
    // Frames that came while the hello was on its way follow it.
    if (this.link) return this.link.forward(JSON.stringify(frame));
    switch (frame.type) {
      case 'hello':
        return this.hello(frame);
      case 'move':
        return this.move(frame);
      case 'ping':
        return this.send({ type: 'pong', ...(frame.id === undefined ? {} : { ref: frame.id }) });
      case 'claim':
        return this.claim(frame.id);
      case 'hint':
        return this.hint(frame);
      case 'chat':
        return this.chatFrom(frame);
      case 'sync':
        return this.sync(frame.id);
    }
  }

  private async hello(frame: HelloFrame): Promise<void> {
    if (this.room) return this.error('already_joined', `this connection already joined game ${this.room.id}`, frame.id);
    if (!SUPPORTED_VERSIONS.includes(frame.v)) return this.error('unsupported_version', `this server speaks protocol versions ${SUPPORTED_VERSIONS.join(' and ')}`, frame.id);
    let reached: Reached | undefined;
    try {
      reached = await this.options.directory.connect(frame.gameId, this.peer, JSON.stringify(frame), this.options.playerId ?? null);
    } catch (e) {
      if (e instanceof CodedError && (e.code === 'game_damaged' || e.code === 'game_elsewhere')) return this.error(e.code, e.message, frame.id);
      throw e;
    }
    if (reached && 'link' in reached) {
      this.link = reached.link;
      // The peer went while the hello was on its way: the far end lets go of it.
      if (!this.peer.isOpen) this.link.closed();
      return;
    }
    // The peer may have gone while the store was read: it must not stay subscribed.
    if (!this.peer.isOpen) return;
    if (!reached) return this.error('unknown_game', `no game ${JSON.stringify(frame.gameId)}`, frame.id);
    const { room } = reached;
    // Without a token, a signed-in player's own seat, from any device they are signed in on.
    let seat: number | null = frame.token === undefined && this.options.playerId ? room.seatOfPlayer(this.options.playerId) : null;
    if (frame.token !== undefined) {
      seat = room.seatOf(frame.token);
      if (seat === null) return this.error('bad_token', 'this token holds no seat in this game', frame.id);
    } else if (seat === null && room.watchers >= this.options.watchersPerGame) {
      return this.error('too_many_watchers', `this game has its maximum of ${this.options.watchersPerGame} watchers`, frame.id);
    }
    const history = room.history();
    this.room = room;
    this.seat = seat;
    this.version = frame.v;
    this.log = room.log.child({ seat });
    const { instance: id } = this.options.directory;
    const instance = id === null ? {} : { instance: id };
    this.send({ type: 'welcome', v: this.version, gameId: room.id, seat, history, chat: room.recentChat(), ...instance });
    room.subscribe(this);
  }

  /** The whole view again, after which deltas follow it. */
  private sync(id?: string | number): void {
    if (!this.room) return this.error('not_joined', 'send a hello frame first', id);
    this.synced = false;
    this.update(this.room.frames(this.seat));
  }

  private claim(id?: string | number): void {
    if (!this.room) return this.error('not_joined', 'send a hello frame first', id);
    if (this.seat === null) return this.error('not_seated', 'this connection watches the game: only a seat holder can claim it', id);
    // Taking the seat back broadcasts a state frame (standIn: null); otherwise say why nothing changed.
    if (!this.room.claim(this.seat)) this.error('no_stand_in', `no bot is standing in for seat ${this.seat}`, id);
  }

  /** Not awaited in the frame queue (a move sent meanwhile is not held up by the search), but
   * through the same boundary. */
  private hint(frame: HintFrame): void {
    const room = this.room;
    if (!room) return this.error('not_joined', 'send a hello frame first', frame.id);
    if (this.seat === null) return this.error('not_seated', 'this connection watches the game: only the player may ask for a hint', frame.id);
    const ref = frame.id === undefined ? {} : { ref: frame.id };
    const asked = room
      .hint(this.seat, frame.turn, (hint) => this.send({ type: 'hint', ...hint, ...ref }))
      .then((refused) => {
        if (refused) this.error(refused.error, refused.message, frame.id);
      });
    void this.boundary(asked, frame.id);
  }

  private chatFrom(frame: ChatFrame): void {
    if (!this.room) return this.error('not_joined', 'send a hello frame first', frame.id);
    if (this.seat === null) return this.error('not_seated', 'watchers read the table talk but may not write: only seated players chat', frame.id);
    const refused = this.room.say(this.seat, { quick: frame.quick, text: frame.text });
    if (refused) return this.error(refused.error, refused.message, frame.id);
    this.options.metrics.chatMessages.inc({ kind: frame.quick ? 'quick' : 'text' });
  }

  private async move(frame: MoveFrame): Promise<void> {
    const room = this.room;
    if (!room) return this.error('not_joined', 'send a hello frame first', frame.id);
    if (this.seat === null) return this.error('not_seated', 'this connection watches the game: a hello with a seat token is needed to play', frame.id);
    const result = await room.play(this.seat, frame.move, frame.turn);
    if ('error' in result) return this.error(result.error, result.message, frame.id);
  }
}

/** The frame's `id` when it is one the protocol allows (echoed as `ref`); an invalid id is not echoed. */
function validId(frame: unknown): string | number | undefined {
  if (!frame || typeof frame !== 'object' || !('id' in frame)) return undefined;
  const { id } = frame;
  return (typeof id === 'string' && id.length <= MAX_ID_LENGTH) || Number.isInteger(id) ? (id as string | number) : undefined;
}
