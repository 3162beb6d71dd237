// The tile tray: the tile to place at its rotation, tiles left, the rotate buttons, and once a
// cell is chosen the follower spots with confirm and take back.

import { tileIcon } from '../art.ts';
import { esc, patch } from '../dom.ts';
import { capitalize, spotLabel, tileWords } from '../text.ts';
import type { Figure, GameScreenState, Selection } from './state.ts';

/** Each figure's words and the key that picks it. */
const FIGURE_WORDS: Record<Figure, { label: string; none: string; key: string }> = {
  follower: { label: 'Follower', none: 'No follower', key: '' },
  large: { label: 'Large follower', none: 'No large follower', key: 'L' },
  abbot: { label: 'Abbot', none: 'No abbot', key: 'A' },
};

export function renderTray(box: HTMLElement, s: GameScreenState): void {
  const v = s.view!;
  if (v.status !== 'playing') {
    patch(box, `<div class="tile-row">${tileIcon(null, 0, 84)}<div><p class="tiles-left"><strong>${v.tilesLeft}</strong> tiles left</p></div></div>`);
    return;
  }
  const mine = s.myTurn();
  const r = s.selection ? s.selection.rotation : s.rotation;
  const rotateButtons = `<div class="row rot-row"><button class="btn icon" data-action="rot-ccw" data-focus-key="rot-ccw" title="Rotate anticlockwise (Shift+R)" aria-label="Rotate anticlockwise">⟲</button><button class="btn icon" data-action="rot-cw" data-focus-key="rot-cw" title="Rotate clockwise (R)" aria-label="Rotate clockwise">⟳</button></div>`;
  patch(
    box,
    `<div class="tile-row"><div class="current-tile${mine ? ' mine' : ''}" role="img" aria-label="Current tile: ${esc(tileWords(v.tile))}">${tileIcon(v.tile, r, 84)}</div>
<div class="tile-meta"><p class="tile-name"><strong>${esc(capitalize(tileWords(v.tile)))}</strong></p>
<p class="tiles-left"><strong>${v.tilesLeft}</strong> tiles left</p>
${mine ? rotateButtons : ''}
</div></div>${s.selection && mine ? spotChoices(s, s.selection) : ''}`,
  );
}

function spotChoices(s: GameScreenState, sel: Selection): string {
  const v = s.view!;
  const spots = s.spots(sel);
  const pending = s.pending;
  const myFollowers = v.you !== null ? (v.seats[v.you]?.followers ?? 0) : 0;
  const words = FIGURE_WORDS[sel.figure];
  const option = (spot: string, i: number) =>
    `<label class="spot-opt"><input type="radio" name="spot" value="${esc(spot)}" data-spot-choice="${esc(spot)}" data-focus-key="spot-${esc(spot)}" ${sel.meeple === spot ? 'checked' : ''}><span><kbd>${i + 1}</kbd> ${esc(spotLabel(spot, true, { tile: v.tile!, rotation: sel.rotation, figure: sel.figure }))}</span></label>`;
  return `${figureChoices(s, sel)}<fieldset class="spots" ${pending ? 'disabled' : ''}><legend>${words.label}</legend>
<label class="spot-opt"><input type="radio" name="spot" value="" data-spot-choice="" data-focus-key="spot-none" ${sel.meeple === null ? 'checked' : ''}><span><kbd>0</kbd> ${words.none}</span></label>
${spots.map(option).join('')}
${s.mayReturnAbbot(sel) ? `<label class="spot-opt"><input type="checkbox" name="return-abbot" data-return-abbot data-focus-key="return-abbot" ${sel.returnAbbot ? 'checked' : ''}><span><kbd>B</kbd> Take the abbot back instead (it scores now)</span></label>` : ''}
${spots.length === 0 && sel.figure === 'follower' ? `<p class="muted small">${myFollowers === 0 ? 'No followers left in your supply.' : 'Every feature of this tile here is already taken.'}</p>` : ''}
</fieldset>
<div class="row confirm-row"><button class="btn primary" data-action="confirm" data-focus-key="confirm" ${pending ? 'disabled' : ''}>${pending ? 'Sending…' : 'Confirm'} <kbd>Enter</kbd></button><button class="btn" data-action="takeback" data-focus-key="takeback" ${pending ? 'disabled' : ''}>Take back <kbd>Esc</kbd></button></div>`;
}

/** Which figure the spots are for, when more than the follower may go on this placement. */
function figureChoices(s: GameScreenState, sel: Selection): string {
  const figures = s.figures(sel);
  if (figures.length < 2) return '';
  const option = (f: Figure) =>
    `<label class="spot-opt"><input type="radio" name="figure" value="${f}" data-figure-choice="${f}" data-focus-key="figure-${f}" ${sel.figure === f ? 'checked' : ''}><span>${FIGURE_WORDS[f].key ? `<kbd>${FIGURE_WORDS[f].key}</kbd> ` : ''}${FIGURE_WORDS[f].label}</span></label>`;
  return `<fieldset class="spots figures" ${s.pending ? 'disabled' : ''}><legend>Figure</legend>${figures.map(option).join('')}</fieldset>`;
}
