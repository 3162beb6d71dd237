// The end of a game played live: the final scorings (unfinished roads, cities and monasteries,
// then farms) shown on the board one by one, each feature outlined with its points and said in
// words, before the end screen. The banner's data-step makes the sequence testable.

import type { BoardView } from '../board.ts';
import type { GameView, LastMove } from '../protocol.ts';
import { esc } from '../dom.ts';
import { eventText } from '../text.ts';
import { BoardIndex, featureCentre, finalScored } from './features.ts';

/** Each scoring stays this long, the whole sequence at most TOTAL_MS (five farmers' games). */
const STEP_MS = 1400;
const TOTAL_MS = 8000;

/** Plays the final scorings of `last` on the board; calls `done` after the last one (at once
 * when there is none). Returns a function that stops it. */
export function replayFinalScoring(board: BoardView, banner: HTMLElement, v: GameView, last: LastMove, done: () => void): () => void {
  const finals = last.events.map((e, i) => ({ e, i })).filter(({ e }) => e.phase === 'final');
  const features = finalScored(new BoardIndex(v.board), v.followers, last.events);
  const stepMs = Math.min(STEP_MS, TOTAL_MS / Math.max(1, finals.length));
  let step = 0;
  let timer = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    banner.hidden = true;
  };
  const next = () => {
    if (stopped) return;
    if (step >= finals.length) {
      stop();
      done();
      return;
    }
    const { e, i } = finals[step];
    step++;
    banner.hidden = false;
    banner.dataset.step = String(step);
    banner.dataset.steps = String(finals.length);
    banner.innerHTML = `<span>Final scoring ${step} of ${finals.length}: ${esc(eventText(e, v.seats))}</span> <button class="btn small" data-action="skip-final">Skip</button>`;
    const f = features[i];
    if (f) board.flashFeature(f, { player: e.players.length === 1 ? e.players[0] : null, points: e.points, at: featureCentre(f), ms: stepMs, cls: 'scored final-scored' });
    timer = window.setTimeout(next, stepMs);
  };
  next();
  return stop;
}

/** The final scorings' replay while it runs, so that it can be skipped or stopped. */
export class FinalScoringShow {
  private stopReplay: (() => void) | null = null;

  get running(): boolean {
    return this.stopReplay !== null;
  }

  /** Plays the final scorings of `last`; `done` when they have all been shown. */
  start(board: BoardView, banner: HTMLElement, v: GameView, last: LastMove, done: () => void): void {
    this.stopReplay = replayFinalScoring(board, banner, v, last, () => {
      this.stopReplay = null;
      done();
    });
  }

  stop(): void {
    this.stopReplay?.();
    this.stopReplay = null;
  }
}
