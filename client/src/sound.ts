// Short game sounds synthesized at run time with WebAudio (no sound files to download): a soft
// knock when a tile is placed, a rising arpeggio for a scoring, a two-note chime when it
// becomes your turn, a tick for table talk. One button turns them off; the choice is kept in
// localStorage. The AudioContext starts on the first click or key (browsers require a gesture).

import type { GameView, LastMove } from './protocol.ts';

const KEY = 'tessera.sound.v1';

export type Cue = 'place' | 'score' | 'turn' | 'chat';

/** Each cue as notes: [frequency Hz, start s, length s, wave, peak gain]. */
const CUES: Record<Cue, [number, number, number, OscillatorType, number][]> = {
  place: [
    [180, 0, 0.09, 'triangle', 0.35],
    [90, 0, 0.12, 'sine', 0.3],
  ],
  score: [
    [523.25, 0, 0.12, 'triangle', 0.22],
    [659.25, 0.09, 0.12, 'triangle', 0.22],
    [783.99, 0.18, 0.22, 'triangle', 0.22],
  ],
  turn: [
    [880, 0, 0.16, 'sine', 0.18],
    [1174.66, 0.14, 0.26, 'sine', 0.16],
  ],
  chat: [[1320, 0, 0.06, 'sine', 0.08]],
};

let context: AudioContext | null = null;

export function soundOn(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setSoundOn(on: boolean): void {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // private mode without storage: the choice lasts this page only
  }
  if (!on) void context?.suspend();
  else void context?.resume();
}

/** Creates or resumes the AudioContext; call from a user gesture. */
function unlock(): void {
  if (!soundOn()) return;
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return;
  context ??= new Ctor();
  if (context.state === 'suspended') void context.resume();
}
for (const event of ['pointerdown', 'keydown'] as const) window.addEventListener(event, unlock, { capture: true, passive: true });

export function play(cue: Cue): void {
  if (!soundOn() || !context || context.state !== 'running') return;
  const now = context.currentTime;
  for (const [freq, start, length, wave, peak] of CUES[cue]) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    // A quick attack and an exponential decay: no clicks at either end.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(peak, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(context.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

/** The sounds a new state frame calls for: a new placement, its scorings, your turn coming. */
export function cuesFor(prev: GameView | null, view: GameView, last: LastMove | null, lastHeardTurn: number): Cue[] {
  const cues: Cue[] = [];
  if (last && last.turn > lastHeardTurn && prev) {
    cues.push('place');
    if (last.events.length > 0) cues.push('score');
  }
  const mine = view.status === 'playing' && view.you !== null && view.currentSeat === view.you && !!view.legal;
  const wasMine = !!prev && prev.status === 'playing' && prev.currentSeat === prev.you && prev.turn === view.turn;
  if (mine && !wasMine && prev) cues.push('turn');
  return cues;
}

const SPEAKER = '<path d="M2 6h3l4-3.5v11L5 10H2Z" fill="currentColor"/>';
const WAVES = '<path d="M11 5.5a3.5 3.5 0 0 1 0 5M12.8 3.5a6 6 0 0 1 0 9" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/>';
const CROSS = '<path d="m11 5.5 4 5m0-5-4 5" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>';

/** The switch's inside: a speaker (with waves or crossed out) and the state in words. */
function soundFace(on: boolean): string {
  return `<svg class="ico" viewBox="0 0 16 16" aria-hidden="true">${SPEAKER}${on ? WAVES : CROSS}</svg><span class="btn-label">${on ? 'Sound on' : 'Sound off'}</span>`;
}

/** The sound switch's markup (game top bar, rules page); any of them on the page flips them all. */
export function soundButton(): string {
  const on = soundOn();
  return `<button type="button" class="btn small ghost sound-toggle" data-sound-toggle aria-pressed="${on}" title="Game sounds: placements, scorings, your turn">${soundFace(on)}</button>`;
}

document.addEventListener('click', (e) => {
  const button = (e.target as HTMLElement).closest<HTMLButtonElement>('[data-sound-toggle]');
  if (!button) return;
  const on = !soundOn();
  setSoundOn(on);
  if (on) unlock();
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-sound-toggle]')) {
    b.setAttribute('aria-pressed', String(on));
    b.innerHTML = soundFace(on);
  }
});
