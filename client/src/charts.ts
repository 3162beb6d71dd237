// The one SVG chart kit, no library: the dashboard draws its live charts with it (styled by the
// page's CSS classes `grid` and `axis`), and the benchmarks write their report figures with it
// (`document` wraps a chart as a self-contained file with the same classes styled inline, so it
// renders on GitHub). Pure string building: it runs in the browser and in Node.

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (x: number): string => (Math.round(x * 10) / 10).toString();

/** Report colours: one per series, in order. */
export const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#17becf'];

/** The "nice" step (1, 2, 2.5, 5 × 10^k) that covers `span` in about `count` steps. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * mag;
}

/** Axis ticks from 0 in "nice" steps (1, 2, 2.5, 5 × 10^k); the last one is ≥ max. */
export function ticks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const step = niceStep(max, count);
  const out: number[] = [];
  for (let i = 0; out.at(-1) === undefined || out.at(-1)! < max * (1 - 1e-9); i++) out.push(Math.round(i * step * 1e6) / 1e6);
  return out.length > 1 ? out : [0, step];
}

/** Ticks in nice steps around the values' own range, for values far from 0 (a rating): the
 * first is ≤ min, the last ≥ max. */
export function rangeTicks(min: number, max: number, count = 4): number[] {
  const span = max - min > 0 ? max - min : Math.max(1, Math.abs(max) / 10);
  const step = niceStep(span, count);
  const start = Math.floor(min / step) * step;
  const out: number[] = [];
  for (let v = start; out.length < 2 || out.at(-1)! < max - step * 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

export function fmt(v: number, unit = ''): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  const s = a >= 1000 ? `${(v / 1000).toFixed(a >= 10000 ? 0 : 1)}k` : a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : a === 0 ? '0' : v.toFixed(3);
  // 8.00 → 8, 0.250 → 0.25: tick labels read cleaner without trailing zeros.
  return `${s.includes('.') ? s.replace(/\.?0+(?=k?$)/, '') : s}${unit}`;
}

/** A plotting area: its position and size in the SVG. */
export interface Frame {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Horizontal grid lines with their labels at the left. */
function gridY(f: Frame, values: number[], sy: (v: number) => number, label: (v: number) => string): string {
  return values
    .map((t) => `<line class="grid" x1="${f.x}" x2="${f.x + f.w}" y1="${n(sy(t))}" y2="${n(sy(t))}"/><text x="${f.x - 4}" y="${n(sy(t) + 3)}" text-anchor="end">${label(t)}</text>`)
    .join('');
}

/** The left and bottom axis lines. */
function axisLines(f: Frame): string {
  return `<line class="axis" x1="${f.x}" x2="${f.x}" y1="${f.y}" y2="${f.y + f.h}"/><line class="axis" x1="${f.x}" x2="${f.x + f.w}" y1="${f.y + f.h}" y2="${f.y + f.h}"/>`;
}

/** A dashed horizontal reference line (a target, a budget) with its label at the right. */
function refLine(f: Frame, y: number, label: string, color: string): string {
  return `<line x1="${f.x}" x2="${f.x + f.w}" y1="${n(y)}" y2="${n(y)}" stroke="${color}" stroke-dasharray="5 4" stroke-width="1.5"/><text x="${f.x + f.w - 2}" y="${n(y - 4)}" text-anchor="end" style="fill:${color}">${esc(label)}</text>`;
}

/** An SVG path through the points, broken where a value is missing. */
function path(points: [number, number | null][], sx: (v: number) => number, sy: (v: number) => number): string {
  let d = '';
  let pen = false;
  for (const [x, y] of points) {
    if (y === null || !Number.isFinite(y)) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${n(sx(x))} ${n(sy(y))}`;
    pen = true;
  }
  return d;
}

function svgLegend(x: number, y: number, names: string[]): string {
  let s = '';
  let at = x;
  names.forEach((name, i) => {
    s += `<rect x="${at}" y="${y - 8}" width="10" height="10" fill="${COLORS[i % COLORS.length]}"/><text x="${at + 14}" y="${y}">${esc(name)}</text>`;
    at += 24 + name.length * 6;
  });
  return s;
}

/** A chart as a self-contained SVG file: white page, a title, the kit's classes styled inline. */
export function document(width: number, height: number, title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="10">\n<style>.grid{stroke:#eee}.axis{stroke:#999}</style>\n<rect width="100%" height="100%" fill="white"/>\n<text x="${width / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${esc(title)}</text>\n${body}\n</svg>\n`;
}

// ---------------------------------------------------------------- dashboard (live, CSS-styled)

export interface TimeSeries {
  name: string;
  color: string;
  values: (number | null)[];
  dashed?: boolean;
  area?: boolean;
}

/** Values over the last N samples (oldest first), with optional horizontal reference lines. */
export function lineChart(opts: {
  series: TimeSeries[];
  width?: number;
  height?: number;
  yMax?: number;
  unit?: string;
  refs?: { value: number; label: string; color: string }[];
  seconds?: number;
  label?: string;
  minMax?: number;
  /** The y axis spans the values' own range instead of starting at 0. */
  fitY?: boolean;
  /** The labels under the two ends of the x axis (default: "−N s" and "now"). */
  xLabels?: [string, string];
}): string {
  const W = opts.width ?? 420;
  const H = opts.height ?? 170;
  const f: Frame = { x: 44, y: 10, w: W - 52, h: H - 32 };
  const count = Math.max(2, ...opts.series.map((s) => s.values.length));
  const all = opts.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const refMax = Math.max(0, ...(opts.refs ?? []).map((r) => r.value));
  const yt = opts.yMax
    ? [0, opts.yMax / 4, opts.yMax / 2, (3 * opts.yMax) / 4, opts.yMax]
    : opts.fitY && all.length
      ? rangeTicks(Math.min(...all), Math.max(...all))
      : ticks(Math.max(...all, refMax * 1.05, opts.minMax ?? 1e-9));
  const [min, max] = [yt[0], yt.at(-1)!];
  const sx = (i: number) => f.x + (f.w * i) / (count - 1);
  const sy = (v: number) => f.y + f.h * (1 - (Math.min(v, max) - min) / (max - min));
  // A fitted axis spans a narrow range far from 0: "1.5k" on every tick would hide it.
  const yLabel = opts.fitY ? (v: number) => `${v}${opts.unit ?? ''}` : (v: number) => fmt(v, opts.unit);
  const parts = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.label ?? 'chart')}">`, gridY(f, yt, sy, yLabel)];
  const [left, right] = opts.xLabels ?? [`−${Math.round(opts.seconds ?? count - 1)} s`, 'now'];
  parts.push(`<text x="${f.x}" y="${H - 5}">${esc(left)}</text><text x="${f.x + f.w}" y="${H - 5}" text-anchor="end">${esc(right)}</text>`);
  for (const r of opts.refs ?? []) if (r.value <= max) parts.push(refLine(f, sy(r.value), r.label, r.color));
  for (const s of opts.series) {
    const off = count - s.values.length;
    const points = s.values.map((v, i): [number, number | null] => [i + off, v]);
    const d = path(points, sx, sy);
    if (!d) continue;
    const drawn = points.filter(([, v]) => v !== null && Number.isFinite(v));
    if (s.area) parts.push(`<path d="${d}L${n(sx(drawn.at(-1)![0]))} ${n(sy(min))}L${n(sx(drawn[0][0]))} ${n(sy(min))}Z" fill="${s.color}" opacity=".18"/>`);
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2" stroke-linejoin="round"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>`);
  }
  parts.push(axisLines(f), '</svg>');
  return parts.join('');
}

/** An HTML legend row for the dashboard's charts. */
export function legend(items: { name: string; color: string }[]): string {
  return `<div class="legend-row">${items.map((i) => `<span><i style="background:${i.color}"></i>${esc(i.name)}</span>`).join('')}</div>`;
}

export interface Bucket {
  /** Upper bound in ms (Infinity for the overflow bucket). */
  le: number;
  count: number;
}

/** A histogram over ms buckets with quantile markers placed by log interpolation. */
export function histogram(opts: { buckets: Bucket[]; color: string; markers?: { label: string; value: number; color: string }[]; width?: number; height?: number; label?: string }): string {
  const W = opts.width ?? 420;
  const H = opts.height ?? 170;
  const f: Frame = { x: 36, y: 16, w: W - 44, h: H - 46 };
  const bs = opts.buckets;
  const bw = f.w / Math.max(1, bs.length);
  const yt = ticks(Math.max(1, ...bs.map((b) => b.count)));
  const max = yt.at(-1)!;
  const sy = (v: number) => f.y + f.h * (1 - v / max);
  const parts = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.label ?? 'histogram')}">`, gridY(f, yt, sy, (v) => fmt(v))];
  bs.forEach((b, i) => {
    const x0 = f.x + i * bw;
    const h = f.h * (b.count / max);
    parts.push(
      `<rect x="${n(x0 + 1.5)}" y="${n(f.y + f.h - h)}" width="${n(Math.max(1, bw - 3))}" height="${n(h)}" fill="${opts.color}" rx="2"><title>≤ ${b.le === Infinity ? '∞' : fmt(b.le, ' ms')}: ${b.count}</title></rect>`,
    );
    if (b.count > 0) parts.push(`<text x="${n(x0 + bw / 2)}" y="${n(f.y + f.h - h - 3)}" text-anchor="middle">${b.count}</text>`);
    const label = b.le === Infinity ? `>${fmt(bs[i - 1]?.le ?? 0)}` : fmt(b.le);
    if (bs.length <= 10 || i % 2 === 0) parts.push(`<text x="${n(x0 + bw / 2)}" y="${f.y + f.h + 13}" text-anchor="middle">${label}</text>`);
  });
  parts.push(`<text x="${f.x + f.w}" y="${H - 3}" text-anchor="end">bucket upper bound, ms</text>`);
  if (!bs.length) parts.push(`<text x="${(f.x + W) / 2}" y="${H / 2}" text-anchor="middle">no samples yet</text>`);
  // Quantile markers: position inside their bucket on a log scale.
  let stagger = 0;
  for (const m of opts.markers ?? []) {
    if (!(m.value > 0) || !bs.length) continue;
    let i = bs.findIndex((b) => m.value <= b.le);
    if (i < 0) i = bs.length - 1;
    const lo = i === 0 ? bs[0].le / 5 : bs[i - 1].le;
    const hi = bs[i].le === Infinity ? lo * 4 : bs[i].le;
    const xm = f.x + (i + Math.max(0, Math.min(1, Math.log(m.value / lo) / Math.log(hi / lo)))) * bw;
    parts.push(
      `<line x1="${n(xm)}" x2="${n(xm)}" y1="${f.y - 4}" y2="${f.y + f.h}" stroke="${m.color}" stroke-width="1.5" stroke-dasharray="3 2"/><text x="${n(xm + 3)}" y="${f.y + 6 + stagger * 12}" style="fill:${m.color}">${esc(m.label)} ${fmt(m.value)} ms</text>`,
    );
    stagger = (stagger + 1) % 3;
  }
  parts.push(`<line class="axis" x1="${f.x}" x2="${f.x + f.w}" y1="${f.y + f.h}" y2="${f.y + f.h}"/></svg>`);
  return parts.join('');
}

/** Rows of grouped horizontal bars sharing one scale. */
export function groupedBars(opts: { rows: { label: string; sub?: string; values: number[] }[]; series: { name: string; color: string }[]; unit: string; width?: number; label?: string }): string {
  const W = opts.width ?? 820;
  const L = 120;
  const barH = 11;
  const gap = 3;
  const rowH = opts.series.length * (barH + gap) + 12;
  const H = Math.max(40, opts.rows.length * rowH + 24);
  const xt = ticks(Math.max(1e-9, ...opts.rows.flatMap((r) => r.values)));
  const max = xt.at(-1)!;
  const x = (v: number) => L + ((W - L - 70) * v) / max;
  const parts = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.label ?? 'bars')}">`];
  for (const v of xt) parts.push(`<line class="grid" x1="${n(x(v))}" x2="${n(x(v))}" y1="0" y2="${H - 18}"/><text x="${n(x(v))}" y="${H - 4}" text-anchor="middle">${fmt(v, opts.unit)}</text>`);
  opts.rows.forEach((r, i) => {
    const y0 = i * rowH + 4;
    parts.push(`<text x="${L - 8}" y="${y0 + 12}" text-anchor="end" style="font-weight:600;fill:#dfe7e1">${esc(r.label)}</text>`);
    if (r.sub) parts.push(`<text x="${L - 8}" y="${y0 + 25}" text-anchor="end">${esc(r.sub)}</text>`);
    r.values.forEach((v, j) => {
      const y = y0 + j * (barH + gap);
      const w = Math.max(v > 0 ? 1.5 : 0, x(v) - L);
      parts.push(
        `<rect x="${L}" y="${y}" width="${n(w)}" height="${barH}" rx="2" fill="${opts.series[j].color}"><title>${esc(opts.series[j].name)}: ${fmt(v, opts.unit)}</title></rect><text x="${n(L + w + 4)}" y="${y + barH - 1}">${fmt(v, opts.unit)}</text>`,
      );
    });
  });
  parts.push('</svg>');
  return parts.join('');
}

/** A tiny line of recent values. */
export function sparkline(values: number[], color = '#7fd1a0'): string {
  const W = 120;
  const H = 28;
  if (values.length < 2) return `<svg viewBox="0 0 ${W} ${H}"></svg>`;
  const max = Math.max(...values, 1e-9);
  const min = Math.min(...values, 0);
  const d = path(
    values.map((v, i) => [i, v]),
    (i) => (W * i) / (values.length - 1),
    (v) => H - 2 - ((H - 4) * (v - min)) / (max - min || 1),
  );
  return `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" aria-hidden="true"><path d="${d}L${W} ${H}L0 ${H}Z" fill="${color}" opacity=".15"/><path d="${d}" fill="none" stroke="${color}" stroke-width="1.6" vector-effect="non-scaling-stroke"/></svg>`;
}

/** A half-ring gauge for a 0..1 value. */
export function gauge(value: number, label: string, color: string): string {
  const v = Math.max(0, Math.min(1, value || 0));
  const a = Math.PI * (1 - v);
  const x = 50 + 40 * Math.cos(a);
  const y = 50 - 40 * Math.sin(a);
  return `<svg viewBox="0 0 100 60" role="img" aria-label="${esc(label)} ${Math.round(v * 100)}%"><path d="M10 50A40 40 0 0 1 90 50" fill="none" stroke="#2f3a33" stroke-width="10"/>${v > 0 ? `<path d="M10 50A40 40 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)}" fill="none" stroke="${color}" stroke-width="10"/>` : ''}<text x="50" y="47" text-anchor="middle" style="font-size:15px;font-weight:700;fill:#fff">${Math.round(v * 100)}%</text><text x="50" y="59" text-anchor="middle" style="font-size:8px">${esc(label)}</text></svg>`;
}

// ---------------------------------------------------------------- report figures (files)

export interface XySeries {
  name: string;
  points: [number, number][];
}

/** Axes of a report figure: frame, grid, x tick labels and both axis titles. */
function reportAxes(f: Frame, xt: number[], yt: number[], sx: (v: number) => number, sy: (v: number) => number, xLabel: string, yLabel: string): string {
  let s = `<rect class="axis" x="${f.x}" y="${f.y}" width="${f.w}" height="${f.h}" fill="none"/>${gridY(f, yt, sy, String)}`;
  for (const t of xt) s += `<text x="${n(sx(t))}" y="${f.y + f.h + 12}" text-anchor="middle">${t}</text>`;
  s += `<text x="${f.x + f.w / 2}" y="${f.y + f.h + 25}" text-anchor="middle">${esc(xLabel)}</text>`;
  return `${s}<text transform="translate(${f.x - 40},${f.y + f.h / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`;
}

function logTicks(max: number): number[] {
  const out = [1];
  while (out.at(-1)! < max) out.push(out.at(-1)! * 10);
  return out;
}

/** Small multiples sharing both axes' scales: one panel per strategy, one colour per series. */
export function scatterPanels(o: { title: string; panels: { title: string; series: XySeries[] }[]; xLabel: string; yLabel: string; logY?: boolean; columns?: number }): string {
  const columns = o.columns ?? 2;
  const pw = 330;
  const ph = 170;
  const width = columns * (pw + 70) + 20;
  const height = Math.ceil(o.panels.length / columns) * (ph + 60) + 50;
  const all = o.panels.flatMap((p) => p.series.flatMap((s) => s.points));
  const xt = ticks(Math.max(1, ...all.map((p) => p[0])), 5);
  const ymax = Math.max(1, ...all.map((p) => p[1]));
  const yt = o.logY ? logTicks(ymax) : ticks(ymax, 5);
  let body = svgLegend(20, 36, o.panels[0]?.series.map((s) => s.name) ?? []);
  o.panels.forEach((panel, i) => {
    const f: Frame = { x: 60 + (i % columns) * (pw + 70), y: 60 + Math.floor(i / columns) * (ph + 60), w: pw, h: ph };
    const sx = (v: number) => f.x + (v / xt.at(-1)!) * f.w;
    const top = yt.at(-1)!;
    const sy = o.logY ? (v: number) => f.y + f.h - (Math.log10(Math.max(1, v)) / Math.log10(top)) * f.h : (v: number) => f.y + f.h - (v / top) * f.h;
    body += `<text x="${f.x + f.w / 2}" y="${f.y - 5}" text-anchor="middle" font-weight="bold">${esc(panel.title)}</text>${reportAxes(f, xt, yt, sx, sy, o.xLabel, o.yLabel)}`;
    panel.series.forEach((s, k) => {
      body += `<g fill="${COLORS[k % COLORS.length]}" fill-opacity="0.6">${s.points.map(([x, y]) => `<circle cx="${n(sx(x))}" cy="${n(sy(y))}" r="2"/>`).join('')}</g>`;
    });
  });
  return document(width, height, o.title, body);
}

/** Grouped vertical bars: one group per category, one bar per series; an optional target line. */
export function bars(o: { title: string; groups: string[]; series: { name: string; values: (number | null)[] }[]; yLabel: string; target?: { value: number; label: string } }): string {
  const gw = Math.max(70, o.series.length * 22 + 20);
  const f: Frame = { x: 60, y: 50, w: o.groups.length * gw, h: 220 };
  const yt = ticks(Math.max(1, ...o.series.flatMap((s) => s.values.filter((v): v is number => v !== null)), o.target?.value ?? 0), 5);
  const sy = (v: number) => f.y + f.h - (v / yt.at(-1)!) * f.h;
  let body = svgLegend(
    20,
    36,
    o.series.map((s) => s.name),
  );
  body += `<rect class="axis" x="${f.x}" y="${f.y}" width="${f.w}" height="${f.h}" fill="none"/>${gridY(f, yt, sy, String)}`;
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
  if (o.target) body += refLine(f, sy(o.target.value), o.target.label, '#000');
  return document(f.x + f.w + 30, f.y + f.h + 60, o.title, body);
}

/** Lines with markers, one per series, on shared numeric axes; an optional target line. */
export function lines(o: { title: string; series: XySeries[]; xLabel: string; yLabel: string; target?: { value: number; label: string } }): string {
  const f: Frame = { x: 60, y: 50, w: 420, h: 220 };
  const all = o.series.flatMap((s) => s.points);
  const xt = ticks(Math.max(1, ...all.map((p) => p[0])), 5);
  const yt = ticks(Math.max(1, ...all.map((p) => p[1]), o.target?.value ?? 0), 5);
  const sx = (v: number) => f.x + (v / xt.at(-1)!) * f.w;
  const sy = (v: number) => f.y + f.h - (v / yt.at(-1)!) * f.h;
  let body =
    svgLegend(
      20,
      36,
      o.series.map((s) => s.name),
    ) + reportAxes(f, xt, yt, sx, sy, o.xLabel, o.yLabel);
  o.series.forEach((s, k) => {
    const c = COLORS[k % COLORS.length];
    body += `<path d="${path(s.points, sx, sy)}" fill="none" stroke="${c}" stroke-width="1.5"/>`;
    body += s.points.map(([x, y]) => `<circle cx="${n(sx(x))}" cy="${n(sy(y))}" r="3" fill="${c}"><title>${esc(`${s.name}: ${x} → ${y}`)}</title></circle>`).join('');
  });
  if (o.target) body += refLine(f, sy(o.target.value), o.target.label, '#000');
  return document(f.x + f.w + 30, f.y + f.h + 50, o.title, body);
}
