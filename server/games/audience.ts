// Everyone connected to one game, players and watchers: who is here, what each is sent, and
// their table talk. A broadcast builds and serialises each distinct view once, however many
// connections show it.

import type { ChatMessage, QuickId } from '../wire/chat.ts';
import type { LastMove } from '../wire/game.ts';
import { type ChatError, TableTalk } from './table-talk.ts';
import { type ViewInput, ViewFrames } from './view.ts';

export interface Subscriber {
  seat: number | null;
  /** The game changed: its frames for this subscriber's view, each serialised once for every
   * subscriber that sees the same view. */
  update(frames: ViewFrames): void;
  /** A table-talk message for everyone connected to the game. */
  chat(message: ChatMessage): void;
  /** The game moved to another instance: this subscriber must reconnect there. */
  moved?(): void;
  /** Something the server does on its own for this game failed (it is tried again). */
  fault?(message: string): void;
}

export class Audience {
  private readonly subscribers = new Set<Subscriber>();
  private readonly talk = new TableTalk();
  /** Broadcasts so far (a `delta` frame's `seq`), and the tiles on the board at the last one. */
  private seq = 0;
  private boardAt: number;

  /** `boardAt`: the tiles on the board now (the first delta's `from`). */
  constructor(boardAt: number) {
    this.boardAt = boardAt;
  }

  add(sub: Subscriber): void {
    this.subscribers.add(sub);
  }

  /** False when `sub` was not here. */
  remove(sub: Subscriber): boolean {
    return this.subscribers.delete(sub);
  }

  /** Someone (a player or a watcher) is connected. */
  get watched(): boolean {
    return this.subscribers.size > 0;
  }

  get watchers(): number {
    let n = 0;
    for (const s of this.subscribers) if (s.seat === null) n++;
    return n;
  }

  /** Some person holding a seat is connected now. */
  get peoplePresent(): boolean {
    for (const s of this.subscribers) if (s.seat !== null) return true;
    return false;
  }

  connected(seat: number): boolean {
    for (const s of this.subscribers) if (s.seat === seat) return true;
    return false;
  }

  /** The frames of `seat`'s view as it is now, outside a broadcast (a new watcher, a `sync`). */
  frames(input: ViewInput, seat: number | null, last: LastMove | null): ViewFrames {
    return new ViewFrames(input, seat, last, this.seq, this.boardAt);
  }

  /** The next frame for everyone: `placed`, the tiles on the board now; the view's input is
   * built only if someone is connected. */
  broadcast(placed: number, last: LastMove | null, input: () => ViewInput): void {
    this.seq++;
    const from = this.boardAt;
    this.boardAt = placed;
    if (this.subscribers.size === 0) return;
    const built = input();
    const bySeat = new Map<number | null, ViewFrames>();
    for (const sub of this.subscribers) {
      let frames = bySeat.get(sub.seat);
      if (frames === undefined) {
        frames = new ViewFrames(built, sub.seat, last, this.seq, from);
        bySeat.set(sub.seat, frames);
      }
      sub.update(frames);
    }
  }

  /** A seated player's table talk (`name`: their seat's), sent to every connection, players and
   * watchers alike; or why not. */
  say(seat: number, name: string, content: { quick?: QuickId; text?: string }): ChatError | null {
    const message = this.talk.say(seat, name, content);
    if ('error' in message) return message;
    for (const sub of this.subscribers) sub.chat(message);
    return null;
  }

  /** The last messages of table talk (in memory only), oldest first. */
  recentChat(): ChatMessage[] {
    return this.talk.recent();
  }

  fault(message: string): void {
    for (const sub of this.subscribers) sub.fault?.(message);
  }

  /** The game moved to another instance: everyone is sent there, and nobody is left here. */
  moved(): void {
    for (const sub of this.subscribers) sub.moved?.();
    this.clear();
  }

  clear(): void {
    this.subscribers.clear();
  }
}
