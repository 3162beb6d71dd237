// Table talk on the game screen: the recent messages, quick-message buttons and a short text box
// for seated players (watchers only read), and a per-game mute remembered in localStorage.
// Messages are built with textContent, never markup: what a player typed stays text.

import { PLAYER_COLORS, PLAYER_GLYPHS } from '../art.ts';
import { toast } from '../dom.ts';
import { CHAT_MAX_CHARS, type ChatMessage, QUICK_IDS, QUICK_MESSAGES, type QuickId } from '../protocol.ts';

const MUTED_KEY = 'tessera.chatMuted.v1';
/** Messages kept on screen (the server hands back at most 30 on reconnect). */
const SHOWN = 60;

export interface ChatSender {
  send(content: { quick: QuickId } | { text: string }): boolean;
  /** Called for each new message heard from another player (not on mute, not from the history). */
  onHeard?(message: ChatMessage): void;
}

export class ChatPanel {
  private readonly box: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly form: HTMLFormElement;
  private readonly input: HTMLInputElement;
  private readonly muteButton: HTMLButtonElement;
  private readonly gameId: string;
  private readonly sender: ChatSender;
  private messages: ChatMessage[] = [];
  private you: number | null = null;
  private unseen = 0;

  constructor(box: HTMLElement, gameId: string, sender: ChatSender) {
    this.box = box;
    this.gameId = gameId;
    this.sender = sender;
    box.classList.add('chat-box');
    box.setAttribute('aria-labelledby', 'chat-title');
    box.innerHTML = `<div class="chat-head"><h2 id="chat-title">Table talk</h2>
<button type="button" class="btn small ghost" data-chat="mute" aria-pressed="false">Mute</button></div>
<ol class="chat-list" tabindex="0" aria-live="polite" aria-relevant="additions" aria-label="Messages"></ol>
<p class="chat-muted muted" hidden></p>
<div class="chat-quick" role="group" aria-label="Quick messages">${QUICK_IDS.map((id) => `<button type="button" class="btn small" data-quick="${id}">${QUICK_MESSAGES[id]}</button>`).join('')}</div>
<form class="chat-form"><input name="chat" autocomplete="off" maxlength="${CHAT_MAX_CHARS}" placeholder="Say something…" aria-label="Message to the table"><button class="btn small" type="submit">Send</button></form>
<p class="chat-watch muted">Watchers read the table talk; only players write.</p>`;
    this.list = box.querySelector('.chat-list')!;
    this.form = box.querySelector('.chat-form')!;
    this.input = box.querySelector('input[name=chat]')!;
    this.muteButton = box.querySelector('[data-chat=mute]')!;
    box.addEventListener('click', this.onClick);
    this.form.addEventListener('submit', this.onSubmit);
    // Keys typed here are text, not game shortcuts (Enter must send, not confirm a move).
    this.input.addEventListener('keydown', (e) => e.stopPropagation());
    this.setSeat(null);
    this.showMuted();
  }

  /** The seat this connection plays (null: watching): watchers get no writing controls. */
  setSeat(you: number | null): void {
    this.you = you;
    this.box.classList.toggle('reading-only', you === null);
  }

  /** Replaces the messages (the welcome's recent talk). */
  load(messages: ChatMessage[]): void {
    this.messages = messages.slice(-SHOWN);
    this.unseen = 0;
    this.redraw();
  }

  add(message: ChatMessage): void {
    this.messages.push(message);
    if (this.messages.length > SHOWN) {
      this.messages.shift();
      this.list.firstElementChild?.remove();
    }
    if (this.muted && message.seat !== this.you) {
      this.unseen++;
      this.showMuted();
      return;
    }
    this.list.append(this.item(message));
    this.scrollDown();
    if (message.seat !== this.you) this.sender.onHeard?.(message);
  }

  get muted(): boolean {
    return mutedGames().includes(this.gameId);
  }

  private setMuted(on: boolean): void {
    const others = mutedGames().filter((id) => id !== this.gameId);
    // The last 50 muted games are remembered: enough, and the list stays small.
    localStorage.setItem(MUTED_KEY, JSON.stringify(on ? [...others, this.gameId].slice(-50) : others));
    this.unseen = 0;
    this.redraw();
  }

  /** Shows the messages (only this seat's own while muted; the others are counted). */
  private redraw(): void {
    const shown = this.muted ? this.messages.filter((m) => m.seat === this.you) : this.messages;
    if (this.muted) this.unseen = this.messages.length - shown.length;
    this.list.replaceChildren(...shown.map((m) => this.item(m)));
    this.showMuted();
    this.scrollDown();
  }

  private showMuted(): void {
    const muted = this.muted;
    this.muteButton.setAttribute('aria-pressed', String(muted));
    this.muteButton.textContent = muted ? 'Unmute' : 'Mute';
    this.muteButton.title = muted ? 'Show the other players’ messages again' : 'Hide the other players’ messages in this game';
    const note = this.box.querySelector<HTMLElement>('.chat-muted')!;
    note.hidden = !muted;
    note.textContent = `Table talk is muted for this game${this.unseen ? ` (${this.unseen} message${this.unseen === 1 ? '' : 's'} hidden)` : ''}.`;
  }

  private item(m: ChatMessage): HTMLLIElement {
    const li = document.createElement('li');
    li.className = `chat-msg${m.seat === this.you ? ' mine' : ''}${m.quick ? ' quick' : ''}`;
    li.style.setProperty('--pc', PLAYER_COLORS[m.seat] ?? '#888');
    const who = document.createElement('span');
    who.className = 'chat-who';
    who.textContent = `${PLAYER_GLYPHS[m.seat] ?? ''} ${m.name}`;
    const what = document.createElement('span');
    what.className = 'chat-text';
    what.textContent = m.quick ? (QUICK_MESSAGES[m.quick] ?? m.quick) : (m.text ?? '');
    li.append(who, ': ', what);
    li.title = new Date(m.at).toLocaleTimeString();
    return li;
  }

  private scrollDown(): void {
    this.list.scrollTop = this.list.scrollHeight;
  }

  private readonly onClick = (e: MouseEvent) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>('[data-quick], [data-chat]');
    if (!t) return;
    if (t.dataset.chat === 'mute') this.setMuted(!this.muted);
    else if (t.dataset.quick && this.you !== null) this.sendOrSay({ quick: t.dataset.quick as QuickId });
  };

  private readonly onSubmit = (e: SubmitEvent) => {
    e.preventDefault();
    const text = this.input.value.trim();
    if (!text || this.you === null) return;
    if (this.sendOrSay({ text })) this.input.value = '';
  };

  private sendOrSay(content: { quick: QuickId } | { text: string }): boolean {
    const sent = this.sender.send(content);
    if (!sent) toast('Not connected: the message was not sent.', 'error');
    return sent;
  }
}

function mutedGames(): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(MUTED_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
