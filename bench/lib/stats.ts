// Percentiles and small summaries over plain arrays of numbers (milliseconds, usually).

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export const round = (x: number, digits = 1): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Nearest-rank percentile of an ascending-sorted array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarize(values: readonly number[], digits = 1): Summary {
  const s = [...values].sort((a, b) => a - b);
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : 0;
  return {
    count: s.length,
    p50: round(percentile(s, 50), digits),
    p95: round(percentile(s, 95), digits),
    p99: round(percentile(s, 99), digits),
    max: round(s.at(-1) ?? 0, digits),
    mean: round(mean, digits),
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function fmt(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  return String(round(x, digits));
}

/** A markdown table from a header row and rows of cells. */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Progress to stderr, with seconds since the process started. */
export function progress(message: string): void {
  process.stderr.write(`[bench ${(performance.now() / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}
