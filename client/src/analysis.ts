// The replay viewer's analysis panel: ask the server to analyse the game, follow its progress
// (server-sent events), then show a bar of points lost per move, the biggest mistakes and each
// seat's summary. Choosing a move steps the replay there; the replay asks which move the expert
// suggested at a step to draw it as a ghost tile.

import { HttpError, api } from './api.ts';
import { PLAYER_COLORS, PLAYER_GLYPHS } from './art.ts';
import { esc, patch } from './dom.ts';
import type { AnalysedMove, AnalysisAnswer, GameAnalysis } from './protocol.ts';
import { spotLabel } from './text.ts';

/** How many of the costliest moves are listed. */
const MISTAKES_LISTED = 5;

export class AnalysisPanel {
  private readonly el: HTMLElement;
  private readonly gameId: string;
  private analysis: GameAnalysis | null = null;
  private events: EventSource | null = null;
  /** Asks again after a lost analysis, backing off: 1 s, 2 s, … 30 s. */
  private retries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private destroyed = false;
  private step = -1;
  private readonly names: string[];

  /** `names`: the record's players, by seat. */
  constructor(el: HTMLElement, gameId: string, names: string[]) {
    this.el = el;
    this.gameId = gameId;
    this.names = names;
    this.render({ kind: 'idle' });
  }

  /** Shows a stored analysis at once; with `start`, asks for one if there is none. */
  async load(start: boolean): Promise<void> {
    let answer: Awaited<ReturnType<typeof api.analysis>>;
    try {
      answer = await api.analysis(this.gameId);
    } catch {
      answer = { gameId: this.gameId, status: 'none' };
    }
    if (answer.status !== 'none') this.show(answer);
    else if (start) await this.request();
  }

  async request(): Promise<void> {
    this.render({ kind: 'progress', text: 'Asking the server…', done: 0, total: 1 });
    try {
      this.show(await api.analyse(this.gameId));
    } catch (e) {
      // Asking again after a restart: a server still away (or busy) is worth another try.
      const retryable = !(e instanceof HttpError) || e.status === 429 || e.status >= 500;
      if (this.retries > 0 && retryable) return this.lost();
      this.render({ kind: 'error', text: (e as Error).message });
    }
  }

  /** The analysed move that led to replay step `step` (record move `step - 1`), if any. */
  moveAt(step: number): AnalysedMove | undefined {
    this.step = step;
    this.highlight();
    return this.analysis?.moves.find((m) => m.moveIndex === step - 1);
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.retryTimer);
    this.events?.close();
  }

  /** The stream ended for good without `done` or `failed`: the server answered an error (after a
   * restart a waiting analysis is lost: `no_analysis`). POST again, which resumes or restarts it. */
  private lost(): void {
    this.events?.close();
    this.events = null;
    if (this.destroyed) return;
    const delay = Math.min(30_000, 1000 * 2 ** this.retries++);
    this.render({ kind: 'progress', text: 'The analysis was interrupted (the server may have restarted): asking again…', done: 0, total: 1 });
    this.retryTimer = setTimeout(() => void this.request(), delay);
  }

  private show(answer: AnalysisAnswer): void {
    if (answer.status === 'done') {
      this.events?.close();
      this.analysis = answer;
      this.el.dispatchEvent(new CustomEvent('analysis-ready', { bubbles: true }));
      return this.renderDone(answer);
    }
    if (answer.status === 'failed') {
      this.events?.close();
      this.events = null;
      return this.render({ kind: 'error', text: `The analysis could not finish: ${answer.message ?? 'unknown error'}.` });
    }
    if (answer.done > 0) this.retries = 0;
    const waiting =
      answer.status === 'queued' ? `Waiting: ${answer.position} ${answer.position === 1 ? 'analysis' : 'analyses'} ahead. Bots playing live games go first.` : 'Analysing with the expert bot…';
    this.render({ kind: 'progress', text: waiting, done: answer.done, total: answer.total });
    if (!this.events) {
      this.events = new EventSource(`/api/games/${encodeURIComponent(this.gameId)}/analysis/events`);
      const onEvent = (e: MessageEvent) => this.show(JSON.parse(e.data) as AnalysisAnswer);
      this.events.addEventListener('progress', onEvent);
      this.events.addEventListener('done', onEvent);
      this.events.addEventListener('failed', onEvent);
      // While the server is away the browser reconnects by itself (CONNECTING); CLOSED means it answered an error.
      this.events.addEventListener('error', () => {
        if (this.events?.readyState === EventSource.CLOSED) this.lost();
      });
    }
  }

  private render(state: { kind: 'idle' } | { kind: 'progress'; text: string; done: number; total: number } | { kind: 'error'; text: string }): void {
    const body =
      state.kind === 'idle'
        ? `<p class="small muted">The expert bot replays every move from its player's view and measures what it cost.</p><button class="btn primary" data-action="analyse">Analyse this game</button>`
        : state.kind === 'progress'
          ? `<p class="small" aria-live="polite">${esc(state.text)}</p><progress max="${state.total}" value="${state.done}" aria-label="Moves analysed">${state.done} / ${state.total}</progress><p class="small muted">${state.done} of ${state.total} moves</p>`
          : `<p class="error">${esc(state.text)}</p><button class="btn" data-action="analyse">Try again</button>`;
    patch(this.el, `<h2>Analysis</h2>${body}`);
  }

  private renderDone(a: GameAnalysis): void {
    const worst = [...a.moves]
      .filter((m) => m.loss > 0)
      .sort((x, y) => y.loss - x.loss || x.moveIndex - y.moveIndex)
      .slice(0, MISTAKES_LISTED);
    const seats = a.seats
      .map(
        (s) =>
          `<li style="--pc:${PLAYER_COLORS[s.seat]}"><span class="log-dot" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span><span><strong>${esc(s.name)}</strong>: ${fmtPoints(s.pointsLost)} points lost over ${s.moves} moves · ${s.mistakes} ${s.mistakes === 1 ? 'mistake' : 'mistakes'} · ${s.bestMoves} best moves</span></li>`,
      )
      .join('');
    const mistakes = worst.length
      ? worst
          .map(
            (m) =>
              `<li data-action="goto" data-step="${m.moveIndex + 1}" tabindex="0" style="--pc:${PLAYER_COLORS[m.seat]}"><span class="log-dot" aria-hidden="true">${PLAYER_GLYPHS[m.seat]}</span><span>Move ${m.moveIndex + 1}, ${esc(this.names[m.seat] ?? `seat ${m.seat + 1}`)}: −${fmtPoints(m.loss)} · the expert: ${esc(suggestion(m))}</span></li>`,
          )
          .join('')
      : '<li class="muted">No move lost a point against the expert.</li>';
    patch(
      this.el,
      `<h2>Analysis</h2>${lossStrip(a.moves, a.moves.length ? a.moves[a.moves.length - 1].moveIndex + 1 : 0)}
<ul class="analysis-seats">${seats}</ul>
<h3>Biggest mistakes</h3><ol class="log mistakes">${mistakes}</ol>
<p class="small muted">Points lost: the expert bot's mean lead after its own move minus after the move played, over the same ${a.engine.samples} sampled tile orders, seen from the mover's side. At a step with a loss, the board shows the expert's move as a ghost.</p>`,
    );
    this.highlight();
  }

  private highlight(): void {
    for (const bar of this.el.querySelectorAll<SVGElement>('.loss-bar.current')) bar.classList.remove('current');
    this.el.querySelector(`.loss-bar[data-step="${this.step}"]`)?.classList.add('current');
  }
}

/** One bar per analysed move, height = points lost, coloured by seat; a click steps there. */
function lossStrip(moves: AnalysedMove[], steps: number): string {
  const max = Math.max(4, ...moves.map((m) => m.loss));
  const w = Math.max(1, steps);
  const bars = moves
    .map((m) => {
      const h = Math.max(m.loss > 0 ? 2 : 0.6, (m.loss / max) * 56);
      // The whole column is the target: a move that lost nothing has almost no bar to click.
      return `<g data-action="goto" data-step="${m.moveIndex + 1}"><rect class="loss-hit" x="${m.moveIndex}" y="0" width="1" height="60"/><rect class="loss-bar" data-step="${m.moveIndex + 1}" x="${m.moveIndex}" y="${60 - h}" width="0.86" height="${h}" fill="${PLAYER_COLORS[m.seat]}"/><title>Move ${m.moveIndex + 1}: −${fmtPoints(m.loss)} points</title></g>`;
    })
    .join('');
  return `<svg class="loss-strip" viewBox="0 0 ${w} 60" preserveAspectRatio="none" role="img" aria-label="Points lost per move (the tallest bars are the biggest mistakes)">${bars}</svg>`;
}

/** Where the expert would have put the tile, for the mistakes list (coordinates are detail). */
function suggestion(m: AnalysedMove): string {
  const b = m.best;
  const follower = b.meeple ? `, a follower on the ${spotLabel(b.meeple, false, { tile: m.tile, rotation: b.rotation })}` : ', no follower';
  return `(${b.x}, ${b.y})${b.rotation ? ` turned ${b.rotation}°` : ''}${follower}`;
}

function fmtPoints(x: number): string {
  return x >= 10 ? x.toFixed(0) : x.toFixed(1);
}
