// Small SVG chart builders for the dashboard: line charts over time, histograms, horizontal
// grouped bars, sparklines. Each returns SVG markup sized by its viewBox (it scales to its box).

import { esc } from '../dom.ts';

export interface Series {
  name: string;
  color: string;
  values: (number | null)[];
  dashed?: boolean;
  area?: boolean;
}

export function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

export function fmt(v: number, unit = ''): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  const s = a >= 1000 ? `${(v / 1000).toFixed(a >= 10000 ? 0 : 1)}k` : a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : a === 0 ? '0' : v.toFixed(3);
  return `${s}${unit}`;
}

/** Values over the last N samples (oldest first), with optional horizontal reference lines. */
export function lineChart(opts: {
  series: Series[];
  width?: number;
  height?: number;
  yMax?: number;
  unit?: string;
  refs?: { value: number; label: string; color: string }[];
  seconds?: number;
  label?: string;
  minMax?: number;
}): string {
  const W = opts.width ?? 420;
  const H = opts.height ?? 170;
  const L = 44;
  const R = 8;
  const T = 10;
  const B = 22;
  const n = Math.max(2, ...opts.series.map((s) => s.values.length));
  const all = opts.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const refMax = Math.max(0, ...(opts.refs ?? []).map((r) => r.value));
  const max = opts.yMax ?? niceMax(Math.max(...all, refMax * 1.05, opts.minMax ?? 1e-9));
  const x = (i: number) => L + ((W - L - R) * i) / (n - 1);
  const y = (v: number) => T + (H - T - B) * (1 - Math.min(v, max) / max);
  const parts: string[] = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.label ?? 'chart')}">`];
  for (let g = 0; g <= 4; g++) {
    const v = (max * g) / 4;
    parts.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 5}" y="${y(v) + 4}" text-anchor="end">${fmt(v, opts.unit)}</text>`);
  }
  const secs = opts.seconds ?? n - 1;
  parts.push(`<text x="${L}" y="${H - 5}">−${Math.round(secs)} s</text><text x="${W - R}" y="${H - 5}" text-anchor="end">now</text>`);
  for (const r of opts.refs ?? []) {
    if (r.value > max) continue;
    parts.push(
      `<line x1="${L}" x2="${W - R}" y1="${y(r.value)}" y2="${y(r.value)}" stroke="${r.color}" stroke-dasharray="5 4" stroke-width="1.5"/><text x="${W - R - 2}" y="${y(r.value) - 4}" text-anchor="end" style="fill:${r.color}">${esc(r.label)}</text>`,
    );
  }
  for (const s of opts.series) {
    const off = n - s.values.length;
    let d = '';
    let pen = false;
    let first = -1;
    let lastI = -1;
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) {
        pen = false;
        return;
      }
      if (first < 0) first = i;
      lastI = i;
      d += `${pen ? 'L' : 'M'}${x(i + off).toFixed(1)} ${y(v).toFixed(1)}`;
      pen = true;
    });
    if (!d) continue;
    if (s.area && first >= 0) parts.push(`<path d="${d}L${x(lastI + off).toFixed(1)} ${y(0)}L${x(first + off).toFixed(1)} ${y(0)}Z" fill="${s.color}" opacity=".18"/>`);
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2" stroke-linejoin="round"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>`);
  }
  parts.push(`<line class="axis" x1="${L}" x2="${L}" y1="${T}" y2="${H - B}"/><line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/>`);
  parts.push('</svg>');
  return parts.join('');
}

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
  const L = 36;
  const R = 8;
  const T = 16;
  const B = 30;
  const bs = opts.buckets;
  const n = Math.max(1, bs.length);
  const max = niceMax(Math.max(1, ...bs.map((b) => b.count)));
  const bw = (W - L - R) / n;
  const y = (v: number) => T + (H - T - B) * (1 - v / max);
  const parts: string[] = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.label ?? 'histogram')}">`];
  for (let g = 0; g <= 4; g++) {
    const v = (max * g) / 4;
    parts.push(`<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 5}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`);
  }
  bs.forEach((b, i) => {
    const x0 = L + i * bw;
    const h = (H - T - B) * (b.count / max);
    parts.push(
      `<rect x="${(x0 + 1.5).toFixed(1)}" y="${(H - B - h).toFixed(1)}" width="${Math.max(1, bw - 3).toFixed(1)}" height="${h.toFixed(1)}" fill="${opts.color}" rx="2"><title>≤ ${b.le === Infinity ? '∞' : fmt(b.le, ' ms')}: ${b.count}</title></rect>`,
    );
    if (b.count > 0) parts.push(`<text x="${x0 + bw / 2}" y="${H - B - h - 3}" text-anchor="middle">${b.count}</text>`);
    const lab = b.le === Infinity ? `>${fmt(bs[i - 1]?.le ?? 0)}` : fmt(b.le);
    if (n <= 10 || i % 2 === 0) parts.push(`<text x="${x0 + bw / 2}" y="${H - B + 13}" text-anchor="middle">${lab}</text>`);
  });
  parts.push(`<text x="${W - R}" y="${H - 3}" text-anchor="end">bucket upper bound, ms</text>`);
  // Quantile markers: position inside their bucket on a log scale.
  let stagger = 0;
  if (!bs.length) parts.push(`<text x="${(L + W) / 2}" y="${H / 2}" text-anchor="middle">no samples yet</text>`);
  for (const m of opts.markers ?? []) {
    if (!(m.value > 0) || !bs.length) continue;
    let i = bs.findIndex((b) => m.value <= b.le);
    if (i < 0) i = bs.length - 1;
    const lo = i === 0 ? bs[0].le / 5 : bs[i - 1].le;
    const hi = bs[i].le === Infinity ? lo * 4 : bs[i].le;
    const f = Math.max(0, Math.min(1, Math.log(m.value / lo) / Math.log(hi / lo)));
    const xm = L + (i + f) * bw;
    parts.push(
      `<line x1="${xm}" x2="${xm}" y1="${T - 4}" y2="${H - B}" stroke="${m.color}" stroke-width="1.5" stroke-dasharray="3 2"/><text x="${xm + 3}" y="${T + 6 + stagger * 12}" style="fill:${m.color}">${esc(m.label)} ${fmt(m.value)} ms</text>`,
    );
    stagger = (stagger + 1) % 3;
  }
  parts.push(`<line class="axis" x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}"/></svg>`);
  return parts.join('');
}

/** Rows of grouped horizontal bars sharing one scale. */
export function groupedBars(opts: { rows: { label: string; sub?: string; values: number[] }[]; series: { name: string; color: string }[]; unit: string; width?: number; label?: string }): string {
  const W = opts.width ?? 820;
  const L = 120;
  const R = 70;
  const barH = 11;
  const gap = 3;
  const rowH = opts.series.length * (barH + gap) + 12;
  const H = Math.max(40, opts.rows.length * rowH + 24);
  const max = niceMax(Math.max(1e-9, ...opts.rows.flatMap((r) => r.values)));
  const x = (v: number) => L + ((W - L - R) * v) / max;
  const parts: string[] = [`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(opts.label ?? 'bars')}">`];
  for (let g = 0; g <= 4; g++) {
    const v = (max * g) / 4;
    parts.push(`<line class="grid" x1="${x(v)}" x2="${x(v)}" y1="0" y2="${H - 18}"/><text x="${x(v)}" y="${H - 4}" text-anchor="middle">${fmt(v, opts.unit)}</text>`);
  }
  opts.rows.forEach((r, i) => {
    const y0 = i * rowH + 4;
    parts.push(`<text x="${L - 8}" y="${y0 + 12}" text-anchor="end" style="font-weight:600;fill:#dfe7e1">${esc(r.label)}</text>`);
    if (r.sub) parts.push(`<text x="${L - 8}" y="${y0 + 25}" text-anchor="end">${esc(r.sub)}</text>`);
    r.values.forEach((v, j) => {
      const y = y0 + j * (barH + gap);
      const w = Math.max(v > 0 ? 1.5 : 0, x(v) - L);
      parts.push(
        `<rect x="${L}" y="${y}" width="${w.toFixed(1)}" height="${barH}" rx="2" fill="${opts.series[j].color}"><title>${esc(opts.series[j].name)}: ${fmt(v, opts.unit)}</title></rect><text x="${L + w + 4}" y="${y + barH - 1}">${fmt(v, opts.unit)}</text>`,
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
  const x = (i: number) => (W * i) / (values.length - 1);
  const y = (v: number) => H - 2 - ((H - 4) * (v - min)) / (max - min || 1);
  const d = values.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join('');
  return `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" aria-hidden="true"><path d="${d}L${W} ${H}L0 ${H}Z" fill="${color}" opacity=".15"/><path d="${d}" fill="none" stroke="${color}" stroke-width="1.6" vector-effect="non-scaling-stroke"/></svg>`;
}

/** A half-ring gauge for a 0..1 value. */
export function gauge(value: number, label: string, color: string): string {
  const v = Math.max(0, Math.min(1, value || 0));
  const r = 40;
  const a = Math.PI * (1 - v);
  const x = 50 + r * Math.cos(a);
  const y = 50 - r * Math.sin(a);
  return `<svg viewBox="0 0 100 60" role="img" aria-label="${esc(label)} ${Math.round(v * 100)}%"><path d="M10 50A40 40 0 0 1 90 50" fill="none" stroke="#2f3a33" stroke-width="10"/>${v > 0 ? `<path d="M10 50A40 40 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)}" fill="none" stroke="${color}" stroke-width="10"/>` : ''}<text x="50" y="47" text-anchor="middle" style="font-size:15px;font-weight:700;fill:#fff">${Math.round(v * 100)}%</text><text x="50" y="59" text-anchor="middle" style="font-size:8px">${esc(label)}</text></svg>`;
}
