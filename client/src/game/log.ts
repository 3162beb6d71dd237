// The game log panel: the entries (game/log-entries.ts), newest first. Each entry's key counts
// from the oldest, so it stays with its entry as new ones come in above it.

import { PLAYER_COLORS, PLAYER_GLYPHS } from '../art.ts';
import { esc, patch } from '../dom.ts';
import type { GameView } from '../protocol.ts';
import type { LogEntry } from './log-entries.ts';

const SHOWN = 120;

export function renderLog(el: HTMLElement, log: LogEntry[], v: GameView): void {
  patch(
    el,
    log
      .slice(0, SHOWN)
      .map(
        (e, i) =>
          `<li class="log-${e.kind}${e.at ? ' pickable' : ''}"${e.at ? ` data-log="${i}" data-focus-key="log-${log.length - i}" tabindex="0" title="Show on the board"` : ''}${e.seat !== null ? ` style="--pc:${PLAYER_COLORS[e.seat]}"` : ''}><span class="log-dot" aria-hidden="true">${e.seat !== null ? PLAYER_GLYPHS[e.seat] : '•'}</span><span>${esc(e.text)}${e.detail.length ? ` <span class="muted">· ${esc(e.detail.join(' · '))}</span>` : ''}</span></li>`,
      )
      .join('') || `<li class="muted">${v.status === 'waiting' ? 'Nothing yet.' : 'Moves and scorings appear here.'}</li>`,
  );
}
