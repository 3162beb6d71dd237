// Tiny SVG charts, no library: small-multiple scatter panels, grouped bars and lines.
// Output is plain, self-contained SVG that renders on GitHub.

export const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#17becf'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const n = (x: number) => (Math.round(x * 10) / 10).toString();

/** "Nice" axis ticks from 0 (or min) to max. */
export function ticks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = 0; t <= max + step * 1e-9; t += step) out.push(Math.round(t * 1e6) / 1e6);
  if (out.at(-1)! < max) out.push(Math.round((out.at(-1)! + step) * 1e6) / 1e6);
  return out;
}

function logTicks(max: number): number[] {
  const out = [1];
  while (out.at(-1)! < max) out.push(out.at(-1)! * 10);
  return out;
}

interface Frame {
  x: number;
  y: number;
  w: number;
  h: number;
}

function axes(f: Frame, xt: number[], yt: number[], sx: (v: number) => number, sy: (v: number) => number, xLabel: string, yLabel: string): string {
  let s = `<rect x="${f.x}" y="${f.y}" width="${f.w}" height="${f.h}" fill="none" stroke="#999"/>`;
  for (const t of yt) s += `<line x1="${f.x}" x2="${f.x + f.w}" y1="${n(sy(t))}" y2="${n(sy(t))}" stroke="#eee"/><text x="${f.x - 4}" y="${n(sy(t) + 3)}" text-anchor="end">${t}</text>`;
  for (const t of xt) s += `<text x="${n(sx(t))}" y="${f.y + f.h + 12}" text-anchor="middle">${t}</text>`;
  s += `<text x="${f.x + f.w / 2}" y="${f.y + f.h + 25}" text-anchor="middle">${esc(xLabel)}</text>`;
  s += `<text transform="translate(${f.x - 34},${f.y + f.h / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`;
  return s;
}

function wrap(width: number, height: number, body: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="10">\n<rect width="100%" height="100%" fill="white"/>\n<text x="${width / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${esc(title)}</text>\n${body}\n</svg>\n`;
}

function legend(x: number, y: number, names: string[], colors: string[]): string {
  let s = '';
  let at = x;
  names.forEach((name, i) => {
    s += `<rect x="${at}" y="${y - 8}" width="10" height="10" fill="${colors[i % colors.length]}"/><text x="${at + 14}" y="${y}">${esc(name)}</text>`;
    at += 24 + name.length * 6;
  });
  return s;
}

export interface Series {
  name: string;
  points: [number, number][];
}

export interface ScatterOptions {
  title: string;
  panels: { title: string; series: Series[] }[];
  xLabel: string;
  yLabel: string;
  /** Log scale on y (values below 1 are drawn at 1). */
  logY?: boolean;
  columns?: number;
}

/** Small multiples sharing both axes' scales: one panel per strategy, one colour per series. */
export function scatterPanels(o: ScatterOptions): string {
  const columns = o.columns ?? 2;
  const pw = 330;
  const ph = 170;
  const rows = Math.ceil(o.panels.length / columns);
  const width = columns * (pw + 70) + 20;
  const height = rows * (ph + 60) + 50;
  const all = o.panels.flatMap((p) => p.series.flatMap((s) => s.points));
  const xmax = Math.max(1, ...all.map((p) => p[0]));
  const ymax = Math.max(1, ...all.map((p) => p[1]));
  const xt = ticks(xmax);
  const yt = o.logY ? logTicks(ymax) : ticks(ymax);
  const names = o.panels[0]?.series.map((s) => s.name) ?? [];
  let body = legend(20, 36, names, COLORS);
  o.panels.forEach((panel, i) => {
    const f: Frame = { x: 60 + (i % columns) * (pw + 70), y: 60 + Math.floor(i / columns) * (ph + 60), w: pw, h: ph };
    const sx = (v: number) => f.x + (v / xt.at(-1)!) * f.w;
    const top = yt.at(-1)!;
    const sy = o.logY ? (v: number) => f.y + f.h - (Math.log10(Math.max(1, v)) / Math.log10(top)) * f.h : (v: number) => f.y + f.h - (v / top) * f.h;
    body += `<text x="${f.x + f.w / 2}" y="${f.y - 5}" text-anchor="middle" font-weight="bold">${esc(panel.title)}</text>`;
    body += axes(f, xt, yt, sx, sy, o.xLabel, o.yLabel);
    panel.series.forEach((s, k) => {
      const c = COLORS[k % COLORS.length];
      body += `<g fill="${c}" fill-opacity="0.6">${s.points.map(([x, y]) => `<circle cx="${n(sx(x))}" cy="${n(sy(y))}" r="2"/>`).join('')}</g>`;
    });
  });
  return wrap(width, height, body, o.title);
}

export interface BarOptions {
  title: string;
  groups: string[];
  series: { name: string; values: (number | null)[] }[];
  yLabel: string;
  /** A dashed horizontal line (a target). */
  target?: { value: number; label: string };
}

/** Grouped bars: one group per category (strategy), one bar per series. */
export function bars(o: BarOptions): string {
  const gw = Math.max(70, o.series.length * 22 + 20);
  const f: Frame = { x: 60, y: 50, w: o.groups.length * gw, h: 220 };
  const width = f.x + f.w + 30;
  const height = f.y + f.h + 60;
  const vals = o.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const yt = ticks(Math.max(1, ...vals, o.target?.value ?? 0));
  const top = yt.at(-1)!;
  const sy = (v: number) => f.y + f.h - (v / top) * f.h;
  let body = legend(
    20,
    36,
    o.series.map((s) => s.name),
    COLORS,
  );
  body += `<rect x="${f.x}" y="${f.y}" width="${f.w}" height="${f.h}" fill="none" stroke="#999"/>`;
  for (const t of yt) body += `<line x1="${f.x}" x2="${f.x + f.w}" y1="${n(sy(t))}" y2="${n(sy(t))}" stroke="#eee"/><text x="${f.x - 4}" y="${n(sy(t) + 3)}" text-anchor="end">${t}</text>`;
  body += `<text transform="translate(${f.x - 40},${f.y + f.h / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`;
  const bw = (gw - 20) / o.series.length;
  o.groups.forEach((g, i) => {
    const gx = f.x + i * gw + 10;
    o.series.forEach((s, k) => {
      const v = s.values[i];
      if (v === null || v === undefined) return;
      const y = sy(Math.max(0, v));
      body += `<rect x="${n(gx + k * bw)}" y="${n(y)}" width="${n(bw - 2)}" height="${n(f.y + f.h - y)}" fill="${COLORS[k % COLORS.length]}"><title>${esc(`${g} ${s.name}: ${v}`)}</title></rect>`;
    });
    body += `<text x="${n(gx + (gw - 20) / 2)}" y="${f.y + f.h + 13}" text-anchor="middle">${esc(g)}</text>`;
  });
  if (o.target) {
    const y = sy(o.target.value);
    body += `<line x1="${f.x}" x2="${f.x + f.w}" y1="${n(y)}" y2="${n(y)}" stroke="#000" stroke-dasharray="4 3"/><text x="${f.x + f.w - 2}" y="${n(y - 3)}" text-anchor="end">${esc(o.target.label)}</text>`;
  }
  return wrap(width, height, body, o.title);
}

export interface LineOptions {
  title: string;
  series: Series[];
  xLabel: string;
  yLabel: string;
  target?: { value: number; label: string };
}

/** Lines with markers, one per series, on shared axes. */
export function lines(o: LineOptions): string {
  const f: Frame = { x: 60, y: 50, w: 420, h: 220 };
  const width = f.x + f.w + 30;
  const height = f.y + f.h + 50;
  const all = o.series.flatMap((s) => s.points);
  const xt = ticks(Math.max(1, ...all.map((p) => p[0])));
  const yt = ticks(Math.max(1, ...all.map((p) => p[1]), o.target?.value ?? 0));
  const sx = (v: number) => f.x + (v / xt.at(-1)!) * f.w;
  const sy = (v: number) => f.y + f.h - (v / yt.at(-1)!) * f.h;
  let body =
    legend(
      20,
      36,
      o.series.map((s) => s.name),
      COLORS,
    ) + axes(f, xt, yt, sx, sy, o.xLabel, o.yLabel);
  o.series.forEach((s, k) => {
    const c = COLORS[k % COLORS.length];
    body += `<polyline fill="none" stroke="${c}" stroke-width="1.5" points="${s.points.map(([x, y]) => `${n(sx(x))},${n(sy(y))}`).join(' ')}"/>`;
    body += s.points.map(([x, y]) => `<circle cx="${n(sx(x))}" cy="${n(sy(y))}" r="3" fill="${c}"><title>${esc(`${s.name}: ${x} → ${y}`)}</title></circle>`).join('');
  });
  if (o.target) {
    const y = sy(o.target.value);
    body += `<line x1="${f.x}" x2="${f.x + f.w}" y1="${n(y)}" y2="${n(y)}" stroke="#000" stroke-dasharray="4 3"/><text x="${f.x + f.w - 2}" y="${n(y - 3)}" text-anchor="end">${esc(o.target.label)}</text>`;
  }
  return wrap(width, height, body, o.title);
}
