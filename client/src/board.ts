// The board: an SVG that draws placed tiles (<use> of the shared tile art), followers, legal
// cells, the tile being placed and its follower spots, with pan and zoom by mouse drag, wheel,
// touch (one finger pans, two pinch) and keyboard. World units: one tile = 100, y south.

import { SVG_NS, TILE, meepleMarkup, spotPosition, PLAYER_COLORS } from './art.ts';
import type { Feature } from './game/features.ts';
import { spotLabel } from './text.ts';

export interface PlacedTile {
  tile: string;
  x: number;
  y: number;
  rotation: number;
}
export interface BoardFollower {
  player: number;
  x: number;
  y: number;
  spot: string;
  /** The expansions' figures; absent: a follower. */
  figure?: 'large' | 'abbot';
}
export interface Tentative {
  tile: string;
  x: number;
  y: number;
  rotation: number;
  player: number;
  /** Follower spots offered on this placement (board-oriented names). */
  spots: string[];
  meeple: string | null;
  /** The figure going on `meeple` (absent: a follower). */
  figure?: 'follower' | 'large' | 'abbot';
}
export interface Ghost {
  tile: string;
  x: number;
  y: number;
  rotation: number;
  fits: boolean;
}
/** A move suggested by the expert bot (a hint, or the analysis at a replay step). */
export interface Suggestion {
  tile: string;
  x: number;
  y: number;
  rotation: number;
  meeple: string | null;
  player: number;
}
export interface Highlight {
  x: number;
  y: number;
  /** The chosen rotation fits here (else only another rotation does). */
  fits: boolean;
}

export interface BoardCallbacks {
  onCell?(x: number, y: number): void;
  onSpot?(spot: string): void;
  onHover?(cell: { x: number; y: number } | null): void;
  /** The mouse is over a follower spot of the tentative tile (null: no longer). */
  onSpotHover?(spot: string | null): void;
}

const el = <K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] => {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
};

export class BoardView {
  readonly svg: SVGSVGElement;
  private readonly world: SVGGElement;
  private readonly layers: Record<'tiles' | 'feature' | 'marks' | 'legal' | 'ghost' | 'suggest' | 'tentative' | 'followers' | 'fx' | 'spots', SVGGElement>;
  private readonly tileEls = new Map<string, SVGUseElement>();
  private readonly cb: BoardCallbacks;
  private k = 0.6;
  private tx = 0;
  private ty = 0;
  private fitted = false;
  private bounds = { minX: 0, maxX: 0, minY: 0, maxY: 0 };
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private drag: { startX: number; startY: number; moved: boolean; target: Element | null; pinch?: { dist: number; k: number; cx: number; cy: number; tx: number; ty: number } } | null = null;
  private lastHover = '';
  private size = { w: 0, h: 0 };
  private resizeObserver: ResizeObserver;

  constructor(container: HTMLElement, callbacks: BoardCallbacks = {}) {
    this.cb = callbacks;
    this.svg = el('svg', { class: 'board', role: 'application', 'aria-label': 'Game board. Drag or use arrow keys to pan, wheel or plus and minus to zoom, F to fit.', tabindex: 0 });
    const bg = el('rect', { class: 'board-bg', x: -1e5, y: -1e5, width: 2e5, height: 2e5 });
    this.world = el('g', { class: 'world' });
    this.world.append(bg);
    this.layers = {} as typeof this.layers;
    for (const name of ['tiles', 'marks', 'legal', 'ghost', 'suggest', 'tentative', 'feature', 'followers', 'fx', 'spots'] as const) {
      const g = el('g', { class: `layer-${name}` });
      this.layers[name] = g;
      this.world.append(g);
    }
    this.svg.append(this.world);
    container.append(this.svg);
    this.bindInput();
    this.resizeObserver = new ResizeObserver(() => {
      const r = this.svg.getBoundingClientRect();
      // A new size re-fits the board, unless the player has set the view by hand or a cell is
      // being kept in view (the tile being placed).
      if (!this.fitted || (!this.manual && !this.kept)) this.fit();
      else {
        // Keep what was in the middle in the middle.
        this.tx += (r.width - this.size.w) / 2;
        this.ty += (r.height - this.size.h) / 2;
        this.apply();
        // …but a cell just brought into view (the tile being placed) stays in view.
        if (this.kept) this.reveal(this.kept.x, this.kept.y);
      }
      this.size = { w: r.width, h: r.height };
    });
    this.resizeObserver.observe(this.svg);
  }

  destroy(): void {
    this.resizeObserver.disconnect();
    this.svg.remove();
  }

  // ---- content ----

  /** Tiles placed since the player last acted ("x,y" keys): drawn faded/slid in and outlined. */
  private fresh = new Set<string>();

  setTiles(tiles: PlacedTile[], fresh: ReadonlySet<string> = this.fresh): void {
    this.fresh = new Set(fresh);
    const seen = new Set<string>();
    for (const t of tiles) {
      const key = `${t.x},${t.y}`;
      seen.add(key);
      const ref = `#tile-${t.tile}`;
      const transform = `translate(${t.x * TILE} ${t.y * TILE}) rotate(${t.rotation} 50 50)`;
      let u = this.tileEls.get(key);
      if (!u) {
        u = el('use', { class: 'tile', 'data-x': t.x, 'data-y': t.y });
        this.tileEls.set(key, u);
        this.layers.tiles.append(u);
      }
      if (u.getAttribute('href') !== ref) u.setAttribute('href', ref);
      if (u.getAttribute('transform') !== transform) u.setAttribute('transform', transform);
      u.setAttribute('data-tile', t.tile);
      u.setAttribute('data-rotation', String(t.rotation));
      u.classList.toggle('fresh', this.fresh.has(key));
    }
    for (const [key, u] of this.tileEls) {
      if (!seen.has(key)) {
        u.remove();
        this.tileEls.delete(key);
      }
    }
    const xs = tiles.map((t) => t.x);
    const ys = tiles.map((t) => t.y);
    const b = tiles.length ? { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) } : { minX: 0, maxX: 0, minY: 0, maxY: 0 };
    const grew = b.minX !== this.bounds.minX || b.maxX !== this.bounds.maxX || b.minY !== this.bounds.minY || b.maxY !== this.bounds.maxY;
    this.bounds = b;
    // The board re-fits as it grows, unless the player has panned or zoomed by hand.
    if (!this.fitted || (grew && !this.manual)) this.fit();
  }

  /** The cell last revealed, kept in view when the board is resized, until the player pans. */
  private kept: { x: number; y: number } | null = null;

  /** Screen pixels at the bottom that something covers (the score track): fit leaves them free. */
  insetBottom = 0;

  /** The player panned or zoomed by hand: growth no longer re-fits (the fit button resets it). */
  manual = false;

  /** Paints a whole feature (the follower's road, city, field or monastery) in a colour. */
  setFeature(f: Feature | null, player: number | null): void {
    this.layers.feature.innerHTML = f ? featureMarkup(f, 'feature-hl', player) : '';
  }

  /** Outlines a feature for a while, with its points floating up from its middle. */
  flashFeature(f: Feature, opts: { player: number | null; points?: number; at?: { x: number; y: number }; ms?: number; cls?: string }): void {
    const g = el('g', { class: opts.cls ?? 'scored', 'data-kind': f.kind, 'data-tiles': f.parts.length });
    let html = featureMarkup(f, 'scored-shape', opts.player);
    if (opts.points !== undefined && opts.at) html += `<text class="points-float" x="${opts.at.x * TILE}" y="${opts.at.y * TILE}" text-anchor="middle">+${opts.points}</text>`;
    g.innerHTML = html;
    if (opts.points !== undefined) g.setAttribute('data-points', String(opts.points));
    this.layers.fx.append(g);
    window.setTimeout(() => g.remove(), opts.ms ?? 2600);
  }

  /** Flashes the outline of one cell (a log entry's tile). */
  flashTile(x: number, y: number, ms = 1800): void {
    const r = el('rect', { class: 'tile-flash', 'data-x': x, 'data-y': y, x: x * TILE + 2, y: y * TILE + 2, width: 96, height: 96, rx: 6 });
    this.layers.fx.append(r);
    window.setTimeout(() => r.remove(), ms);
  }

  /** Removes every flash now (a new turn's scorings replace the last). */
  clearFlashes(): void {
    this.layers.fx.replaceChildren();
  }

  /** Followers, drawn on the tiles they stand on (the tiles must be set first). */
  setFollowers(followers: BoardFollower[], tiles: PlacedTile[]): void {
    this.lastFollowers = { followers, tiles };
    // Followers grow when zoomed out so they stay readable (about 18 px tall at least).
    const scale = this.followerScale();
    this.drawnScale = scale;
    const at = new Map(tiles.map((t) => [`${t.x},${t.y}`, t]));
    const out: string[] = [];
    for (const f of followers) {
      const t = at.get(`${f.x},${f.y}`);
      if (!t) continue;
      const p = spotPosition(t.tile, t.rotation, f.spot);
      if (!p) continue;
      out.push(
        `<g class="follower" data-x="${f.x}" data-y="${f.y}" data-spot="${f.spot}" data-player="${f.player}"${f.figure ? ` data-figure="${f.figure}"` : ''}>${meepleMarkup(f.player, f.x * TILE + p.at[0], f.y * TILE + p.at[1], { farmer: p.kind === 'field', scale, figure: f.figure })}</g>`,
      );
    }
    this.layers.followers.innerHTML = out.join('');
  }

  /** Outlines of recent placements, in the placing player's colour (dashed for older ones). */
  setMarks(marks: { x: number; y: number; player: number | null; recent: boolean }[]): void {
    this.layers.marks.innerHTML = marks
      .map((m) => {
        const color = m.player === null ? '#fff' : (PLAYER_COLORS[m.player] ?? '#fff');
        return `<rect class="mark${m.recent ? ' recent' : ''}" x="${m.x * TILE + 3}" y="${m.y * TILE + 3}" width="94" height="94" rx="4" fill="none" stroke="${color}" stroke-width="${m.recent ? 6 : 3}"${m.recent ? '' : ' stroke-dasharray="10 7"'}/>`;
      })
      .join('');
  }

  setHighlights(cells: Highlight[]): void {
    this.layers.legal.innerHTML = cells
      .map((c) => `<rect class="legal${c.fits ? ' fits' : ''}" data-x="${c.x}" data-y="${c.y}" x="${c.x * TILE + 4}" y="${c.y * TILE + 4}" width="92" height="92" rx="8"/>`)
      .join('');
  }

  setGhost(g: Ghost | null): void {
    this.layers.ghost.innerHTML = g
      ? `<g class="board-ghost${g.fits ? ' fits' : ' misfit'}"><use href="#tile-${g.tile}" transform="translate(${g.x * TILE} ${g.y * TILE}) rotate(${g.rotation} 50 50)"/>${g.fits ? '' : `<rect x="${g.x * TILE}" y="${g.y * TILE}" width="100" height="100" class="misfit-cover"/>`}</g>`
      : '';
  }

  /** Draws the suggested move as a ghost tile with a dashed outline (and its follower). */
  setSuggestion(s: Suggestion | null): void {
    if (!s) {
      this.layers.suggest.innerHTML = '';
      return;
    }
    const spot = s.meeple ? spotPosition(s.tile, s.rotation, s.meeple) : null;
    const meeple = spot ? meepleMarkup(s.player, s.x * TILE + spot.at[0], s.y * TILE + spot.at[1], { farmer: spot.kind === 'field', scale: this.followerScale(), ghost: true }) : '';
    this.layers.suggest.innerHTML = `<g class="board-suggestion" data-x="${s.x}" data-y="${s.y}" data-rotation="${s.rotation}"><use href="#tile-${s.tile}" transform="translate(${s.x * TILE} ${s.y * TILE}) rotate(${s.rotation} 50 50)"/><rect x="${s.x * TILE + 2}" y="${s.y * TILE + 2}" width="96" height="96" rx="5"/>${meeple}</g>`;
  }

  setTentative(t: Tentative | null): void {
    if (!t) {
      this.layers.tentative.innerHTML = '';
      this.layers.spots.innerHTML = '';
      this.spotCentres = [];
      return;
    }
    const ox = t.x * TILE;
    const oy = t.y * TILE;
    this.layers.tentative.innerHTML = `<g class="tentative" data-x="${t.x}" data-y="${t.y}" data-rotation="${t.rotation}"><use href="#tile-${t.tile}" transform="translate(${ox} ${oy}) rotate(${t.rotation} 50 50)"/><rect class="tentative-frame" x="${ox + 2}" y="${oy + 2}" width="96" height="96" rx="3" stroke="${PLAYER_COLORS[t.player] ?? '#fff'}"/></g>`;
    const spots: string[] = [];
    this.spotCentres = [];
    for (const name of t.spots) {
      const p = spotPosition(t.tile, t.rotation, name);
      if (!p) continue;
      const cx = ox + p.at[0];
      const cy = oy + p.at[1];
      this.spotCentres.push({ name, cx, cy });
      const chosen = t.meeple === name;
      spots.push(
        `<g class="spot${chosen ? ' chosen' : ''}" data-spot="${name}" role="button" aria-label="${spotLabel(name, true, t)}"><circle class="spot-hit" cx="${cx}" cy="${cy}" r="22"/><circle cx="${cx}" cy="${cy}" r="11"/>${chosen ? meepleMarkup(t.player, cx, cy, { farmer: p.kind === 'field', scale: 0.85, figure: t.figure }) : ''}</g>`,
      );
    }
    this.layers.spots.innerHTML = spots.join('');
  }

  /** Follower spots on the tentative tile, in world units. */
  private spotCentres: { name: string; cx: number; cy: number }[] = [];

  /** The follower spot a tap at (clientX, clientY) means: the nearest one within 22 screen px
   * (a 44 px target at any zoom; where targets overlap, the nearest wins), or within the drawn
   * circle when zoomed in. */
  private spotNear(clientX: number, clientY: number): string | null {
    if (!this.spotCentres.length) return null;
    const r = this.svg.getBoundingClientRect();
    const wx = (clientX - r.left - this.tx) / this.k;
    const wy = (clientY - r.top - this.ty) / this.k;
    const reach = Math.max(22 / this.k, 13);
    let best: string | null = null;
    let bestD = Number.POSITIVE_INFINITY;
    for (const s of this.spotCentres) {
      const d = Math.hypot(s.cx - wx, s.cy - wy);
      if (d <= reach && d < bestD) {
        best = s.name;
        bestD = d;
      }
    }
    return best;
  }

  // ---- view transform ----

  private lastFollowers: { followers: BoardFollower[]; tiles: PlacedTile[] } | null = null;
  private drawnScale = 0.85;

  private followerScale(): number {
    return Math.round(Math.max(0.85, Math.min(1.9, 0.72 / this.k)) * 4) / 4;
  }

  private apply(): void {
    if (this.lastFollowers && this.followerScale() !== this.drawnScale) this.setFollowers(this.lastFollowers.followers, this.lastFollowers.tiles);
    this.world.setAttribute('transform', `translate(${this.tx.toFixed(2)} ${this.ty.toFixed(2)}) scale(${this.k.toFixed(4)})`);
    this.svg.style.setProperty('--zoom', String(this.k));
    this.svg.classList.toggle('zoomed-out', this.k < 0.35);
  }

  /** Fits the whole board (plus a ring of free cells) into view. */
  fit(): void {
    const r = this.svg.getBoundingClientRect();
    if (r.width < 10 || r.height < 10) return;
    const b = this.bounds;
    const w = (b.maxX - b.minX + 3) * TILE;
    const h = (b.maxY - b.minY + 3) * TILE;
    const height = Math.max(10, r.height - this.insetBottom);
    this.k = Math.max(0.08, Math.min(1.4, Math.min(r.width / w, height / h)));
    const cx = ((b.minX + b.maxX + 1) / 2) * TILE;
    const cy = ((b.minY + b.maxY + 1) / 2) * TILE;
    this.tx = r.width / 2 - cx * this.k;
    this.ty = height / 2 - cy * this.k;
    this.fitted = true;
    this.manual = false;
    this.kept = null;
    this.size = { w: r.width, h: r.height };
    this.apply();
  }

  /** Pans (as little as needed) so that all of cell (x, y) is in view, zoom unchanged. */
  reveal(x: number, y: number, margin = 24): void {
    this.kept = { x, y };
    const r = this.svg.getBoundingClientRect();
    const size = TILE * this.k;
    const x0 = x * size + this.tx;
    const y0 = y * size + this.ty;
    const fix = (lo: number, extent: number): number => {
      if (size + 2 * margin > extent) return extent / 2 - (lo + size / 2);
      if (lo < margin) return margin - lo;
      if (lo + size > extent - margin) return extent - margin - (lo + size);
      return 0;
    };
    const dx = fix(x0, r.width);
    const dy = fix(y0, r.height - this.insetBottom);
    if (dx || dy) this.panBy(dx, dy);
  }

  /** Zooms in on a cell when it is drawn smaller than `minPx` (follower spots need room to be
   * tapped), then brings it into view. */
  focusCell(x: number, y: number, minPx: number): void {
    if (TILE * this.k < minPx) {
      const r = this.svg.getBoundingClientRect();
      const target = Math.min(minPx, r.width * 0.6, r.height * 0.6) / TILE;
      if (target > this.k) {
        const c = this.cellCenter(x, y);
        this.zoomAt(target / this.k, c.x - r.left, c.y - r.top);
      }
    }
    this.reveal(x, y);
  }

  zoomAt(factor: number, sx?: number, sy?: number): void {
    const r = this.svg.getBoundingClientRect();
    const px = sx ?? r.width / 2;
    const py = sy ?? r.height / 2;
    const k = Math.max(0.08, Math.min(3, this.k * factor));
    const f = k / this.k;
    this.tx = px - (px - this.tx) * f;
    this.ty = py - (py - this.ty) * f;
    this.k = k;
    this.apply();
  }

  panBy(dx: number, dy: number): void {
    this.tx += dx;
    this.ty += dy;
    this.apply();
  }

  /** Screen centre of a cell, in client coordinates. */
  private cellCenter(x: number, y: number): { x: number; y: number } {
    const r = this.svg.getBoundingClientRect();
    return { x: r.left + this.tx + (x + 0.5) * TILE * this.k, y: r.top + this.ty + (y + 0.5) * TILE * this.k };
  }

  private toCell(clientX: number, clientY: number): { x: number; y: number } {
    const r = this.svg.getBoundingClientRect();
    const wx = (clientX - r.left - this.tx) / this.k;
    const wy = (clientY - r.top - this.ty) / this.k;
    return { x: Math.floor(wx / TILE), y: Math.floor(wy / TILE) };
  }

  // ---- input ----

  private bindInput(): void {
    const svg = this.svg;
    svg.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const r = svg.getBoundingClientRect();
        const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
        this.manual = true;
        this.kept = null;
        this.zoomAt(Math.exp(-delta * 0.0015), e.clientX - r.left, e.clientY - r.top);
      },
      { passive: false },
    );

    svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      svg.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 1) {
        this.drag = { startX: e.clientX, startY: e.clientY, moved: false, target: e.target as Element };
      } else if (this.pointers.size === 2 && this.drag) {
        const [a, b] = [...this.pointers.values()];
        const r = svg.getBoundingClientRect();
        this.drag.moved = true;
        this.manual = true;
        this.kept = null;
        this.drag.pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, k: this.k, cx: (a.x + b.x) / 2 - r.left, cy: (a.y + b.y) / 2 - r.top, tx: this.tx, ty: this.ty };
      }
    });

    svg.addEventListener('pointermove', (e) => {
      const prev = this.pointers.get(e.pointerId);
      if (!prev) {
        if (e.pointerType === 'mouse') this.hover(e.clientX, e.clientY);
        return;
      }
      const d = this.drag;
      if (d?.pinch && this.pointers.size >= 2) {
        this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
        const [a, b] = [...this.pointers.values()];
        const r = svg.getBoundingClientRect();
        const dist = Math.hypot(a.x - b.x, a.y - b.y) || 1;
        const p = d.pinch;
        const k = Math.max(0.08, Math.min(3, (p.k * dist) / p.dist));
        const cx = (a.x + b.x) / 2 - r.left;
        const cy = (a.y + b.y) / 2 - r.top;
        // Keep the world point under the initial midpoint under the current midpoint.
        const wx = (p.cx - p.tx) / p.k;
        const wy = (p.cy - p.ty) / p.k;
        this.k = k;
        this.tx = cx - wx * k;
        this.ty = cy - wy * k;
        this.apply();
        return;
      }
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (!d) return;
      if (!d.moved && Math.hypot(e.clientX - d.startX, e.clientY - d.startY) > 5) {
        d.moved = true;
        this.manual = true;
        this.kept = null;
        svg.classList.add('panning');
      }
      if (d.moved) this.panBy(e.clientX - prev.x, e.clientY - prev.y);
    });

    const end = (e: PointerEvent, cancelled: boolean) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.delete(e.pointerId);
      const d = this.drag;
      if (this.pointers.size > 0) {
        // Leaving a pinch: continue as a pan from the remaining finger.
        if (d) d.pinch = undefined;
        return;
      }
      this.drag = null;
      svg.classList.remove('panning');
      if (!d || d.moved || cancelled) return;
      const spot = this.spotNear(e.clientX, e.clientY);
      if (spot) {
        this.cb.onSpot?.(spot);
        return;
      }
      const c = this.toCell(e.clientX, e.clientY);
      this.cb.onCell?.(c.x, c.y);
    };
    svg.addEventListener('pointerup', (e) => end(e, false));
    svg.addEventListener('pointercancel', (e) => end(e, true));
    svg.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'mouse' && !this.pointers.size) {
        this.lastHover = '';
        this.cb.onHover?.(null);
      }
    });

    svg.addEventListener('keydown', (e) => {
      const step = 60;
      const keys: Record<string, () => void> = {
        ArrowLeft: () => this.panBy(step, 0),
        ArrowRight: () => this.panBy(-step, 0),
        ArrowUp: () => this.panBy(0, step),
        ArrowDown: () => this.panBy(0, -step),
        '+': () => this.zoomAt(1.25),
        '=': () => this.zoomAt(1.25),
        '-': () => this.zoomAt(0.8),
        f: () => this.fit(),
        F: () => this.fit(),
      };
      const fn = keys[e.key];
      if (fn && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        if (e.key !== 'f' && e.key !== 'F') {
          this.manual = true;
          this.kept = null;
        }
        fn();
      }
    });
  }

  private lastSpotHover: string | null = null;

  private hover(clientX: number, clientY: number): void {
    const spot = this.spotNear(clientX, clientY);
    if (spot !== this.lastSpotHover) {
      this.lastSpotHover = spot;
      this.cb.onSpotHover?.(spot);
    }
    const c = this.toCell(clientX, clientY);
    const key = `${c.x},${c.y}`;
    if (key === this.lastHover) return;
    this.lastHover = key;
    this.cb.onHover?.(c);
  }
}

/** A feature's segments as <use> of the shared segment shapes (defs.ts), in a player's colour. */
function featureMarkup(f: Feature, cls: string, player: number | null): string {
  const color = player === null ? '#fff' : (PLAYER_COLORS[player] ?? '#fff');
  const uses = f.parts.map((p) => `<use href="#seg-${p.tile}-${p.seg}" transform="translate(${p.x * TILE} ${p.y * TILE}) rotate(${p.rotation} 50 50)"/>`).join('');
  const square = f.centre ? `<rect class="cloister-square" x="${(f.centre.x - 1) * TILE + 3}" y="${(f.centre.y - 1) * TILE + 3}" width="${3 * TILE - 6}" height="${3 * TILE - 6}" rx="8"/>` : '';
  return `<g class="${cls}" data-kind="${f.kind}" data-parts="${f.parts.length}" style="color:${color}">${uses}${square}</g>`;
}
