// Table talk on the wire (docs/PROTOCOL.md): the fixed quick messages and a chat message as
// every connection of the game receives it. Plain constants and types, no schema library, so
// the browser client can import the quick messages without pulling TypeBox into its bundle.

/** Quick messages by id; the client shows the words, the wire carries the id. */
export const QUICK_MESSAGES = {
  hello: 'Hello!',
  good_luck: 'Good luck!',
  good_move: 'Good move!',
  well_played: 'Well played!',
  nice: 'Nice one!',
  oops: 'Oops!',
  thinking: 'Let me think…',
  thanks: 'Thanks!',
  gg: 'Good game!',
} as const;
export type QuickId = keyof typeof QUICK_MESSAGES;
export const QUICK_IDS = Object.keys(QUICK_MESSAGES) as QuickId[];

/** Free text: at most this many characters (after trimming). */
export const CHAT_MAX_CHARS = 200;

/** One message at the table: a quick message or free text, from a seated player. */
export interface ChatMessage {
  seat: number;
  name: string;
  quick?: QuickId;
  text?: string;
  /** When the server accepted it (epoch ms). */
  at: number;
}
