// One game's table talk: who may speak (seated players, not watchers), how often (a token
// bucket per seat, shared by that seat's connections), what text is accepted (trimmed, control
// and direction-override characters removed, length-limited), and the recent messages kept in
// memory for connections that join or come back (not stored: a restart forgets them).

import { TokenBucket } from '../token-bucket.ts';
import { CHAT_MAX_CHARS, type ChatMessage, type QuickId } from '../wire/chat.ts';

/** Messages a seat may send at once, then one more every `CHAT_REFILL_MS`. */
export const CHAT_BURST = 5;
export const CHAT_REFILL_MS = 3000;
/** Recent messages replayed to a connection that says hello. */
export const CHAT_KEPT = 30;

export type ChatError = { error: 'bad_frame' | 'chat_rate_limited'; message: string };

// Control characters (whitespace ones become spaces first), the bidirectional marks, overrides
// and isolates that could make a message display as something else, and lone surrogates (half a
// character: not valid Unicode text).
const UNSAFE = /[\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

// What shows nothing on its own: spaces, combining marks, format characters (U+200B, …) and the
// other default-ignorable ones (U+3164 Hangul filler, variation selectors), braille blank.
const INVISIBLE = /[\s\p{M}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** Whether a text shows at least one character (not only blanks and marks). */
export function hasVisibleText(text: string): boolean {
  return text.replace(INVISIBLE, '') !== '';
}

/** The text as shown to everyone (a chat message, a seat's name): unsafe characters dropped,
 * whitespace runs made one space. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(UNSAFE, '').replace(/ {2,}/g, ' ').trim();
}

export class TableTalk {
  private readonly recentMessages: ChatMessage[] = [];
  private readonly buckets = new Map<number, TokenBucket>();

  /** Checks and records a message from `seat`; the caller broadcasts it. */
  say(seat: number, name: string, content: { quick?: QuickId; text?: string }, now = Date.now()): ChatMessage | ChatError {
    if ((content.quick === undefined) === (content.text === undefined)) return { error: 'bad_frame', message: 'a chat frame carries either quick or text' };
    let text: string | undefined;
    if (content.text !== undefined) {
      text = cleanText(content.text);
      if (!text) return { error: 'bad_frame', message: 'text is empty' };
      if (!hasVisibleText(text)) return { error: 'bad_frame', message: 'text has no visible character' };
      if ([...text].length > CHAT_MAX_CHARS) return { error: 'bad_frame', message: `text must be at most ${CHAT_MAX_CHARS} characters` };
    }
    if (!this.take(seat, now)) return { error: 'chat_rate_limited', message: `at most ${CHAT_BURST} messages at once, then one every ${CHAT_REFILL_MS / 1000} s` };
    const message: ChatMessage = { seat, name, ...(content.quick ? { quick: content.quick } : { text }), at: now };
    this.recentMessages.push(message);
    if (this.recentMessages.length > CHAT_KEPT) this.recentMessages.shift();
    return message;
  }

  recent(): ChatMessage[] {
    return this.recentMessages.slice();
  }

  private take(seat: number, now: number): boolean {
    let bucket = this.buckets.get(seat);
    if (!bucket) {
      bucket = new TokenBucket(CHAT_BURST, CHAT_REFILL_MS, now);
      this.buckets.set(seat, bucket);
    }
    return bucket.take(now);
  }
}
