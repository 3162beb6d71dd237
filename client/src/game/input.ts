// The game screen's input, by event delegation: buttons by their data-action, log entries picked,
// the follower list, the join form, and the keyboard (R rotate, N/P next cell, 0–9 follower spot,
// L/A the large follower/the abbot instead, B the abbot back, Enter confirm, Esc take back, +/−/F the view; typing
// in a field is left alone).

import { inputTarget } from '../dom.ts';
import type { Placing } from './placing.ts';
import type { Figure, GameScreenState } from './state.ts';

export interface ScreenInput {
  /** A button with data-action (zoom, confirm, rematch…). */
  action(name: string): void;
  /** A log entry picked (by click, Enter or Space): its index in the log. */
  logEntry(i: number): void;
  /** The join form sent with this name. */
  join(name: string): void;
  /** Escape on the end screen. */
  closeEnd(): void;
  fit(): void;
  zoom(factor: number): void;
}

export interface InputContext {
  root: HTMLElement;
  game: HTMLElement;
  state: GameScreenState;
  placing: Placing;
  /** A dialog is over the game: keys do not play. */
  dialogOpen(): boolean;
  /** The board has the focus: it pans and zooms by keys itself. */
  boardFocused(): boolean;
  to: ScreenInput;
}

/** Listens; returns the function that stops listening. */
export function bindInput(c: InputContext): () => void {
  const onClick = (e: MouseEvent) => {
    const entry = (e.target as HTMLElement).closest<HTMLElement>('[data-log]');
    if (entry && c.game.contains(entry)) c.to.logEntry(Number(entry.dataset.log));
    const t = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (t && c.game.contains(t)) c.to.action(t.dataset.action ?? '');
  };
  const onChange = (e: Event) => {
    const { spotChoice, figureChoice, returnAbbot } = (e.target as HTMLInputElement).dataset;
    if (returnAbbot !== undefined) c.placing.toggleReturnAbbot();
    if (spotChoice !== undefined) c.placing.chooseSpot(spotChoice || null);
    if (figureChoice !== undefined) c.placing.chooseFigure(figureChoice as Figure);
  };
  const onSubmit = (e: SubmitEvent) => {
    const f = e.target as HTMLFormElement;
    if (f.dataset.form !== 'join') return;
    e.preventDefault();
    const name = String(new FormData(f).get('name') ?? '').trim();
    if (name) c.to.join(name);
  };
  const onKey = (e: KeyboardEvent) => gameKey(e, c);
  c.root.addEventListener('click', onClick);
  c.root.addEventListener('change', onChange);
  c.root.addEventListener('submit', onSubmit);
  document.addEventListener('keydown', onKey);
  return () => {
    c.root.removeEventListener('click', onClick);
    c.root.removeEventListener('change', onChange);
    c.root.removeEventListener('submit', onSubmit);
    document.removeEventListener('keydown', onKey);
  };
}

function gameKey(e: KeyboardEvent, c: InputContext): void {
  if (inputTarget(e) && e.key !== 'Enter' && e.key !== 'Escape') return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (c.dialogOpen()) {
    if (e.key === 'Escape' && c.state.view?.status === 'finished') c.to.closeEnd();
    return;
  }
  const k = e.key;
  const sel = c.state.selection;
  const target = e.target as HTMLElement;
  const entry = target.closest?.<HTMLElement>('[data-log]');
  if (entry && (k === 'Enter' || k === ' ')) {
    e.preventDefault();
    c.to.logEntry(Number(entry.dataset.log));
    return;
  }
  if (k === 'r' || k === 'R') {
    e.preventDefault();
    c.placing.rotate(e.shiftKey ? -1 : 1);
  } else if (k === 'Enter' && sel) {
    if (target.closest?.('button, a')) return;
    e.preventDefault();
    c.placing.confirm();
  } else if (k === 'Escape' || (k === 'Backspace' && sel)) {
    e.preventDefault();
    c.placing.takeBack();
  } else if (k === 'n' || k === 'N' || k === 'p' || k === 'P') {
    e.preventDefault();
    c.placing.cycle(k === 'n' || k === 'N' ? 1 : -1);
  } else if ((k === 'b' || k === 'B') && sel) {
    e.preventDefault();
    c.placing.toggleReturnAbbot();
  } else if ((k === 'l' || k === 'L' || k === 'a' || k === 'A') && sel) {
    e.preventDefault();
    c.placing.chooseFigure(k === 'l' || k === 'L' ? 'large' : 'abbot');
  } else if (/^[0-9]$/.test(k) && sel) {
    const spot = k === '0' ? null : c.state.spots()[Number(k) - 1];
    if (spot === null) c.placing.toggleSpot(null);
    else if (spot !== undefined) c.placing.chooseSpot(spot);
  } else if ((k === 'f' || k === 'F' || k === '+' || k === '=' || k === '-') && !c.boardFocused()) {
    if (k === 'f' || k === 'F') c.to.fit();
    else c.to.zoom(k === '-' ? 0.8 : 1.25);
  }
}
