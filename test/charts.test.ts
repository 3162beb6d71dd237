// The chart kit shared by the dashboard and the benchmark reports.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bars, fmt, lineChart, lines, scatterPanels, ticks } from '../client/src/charts.ts';

test('ticks start at 0, step by 1, 2, 2.5 or 5 × 10^k, and end at or above the maximum', () => {
  for (const max of [0.003, 0.7, 1, 7, 9.99, 10, 37, 100, 123, 4999, 5001, 1e6]) {
    const t = ticks(max);
    assert.equal(t[0], 0);
    assert.ok(t.at(-1)! >= max && t.length >= 2 && t.length <= 6, `${max}: ${t}`);
    const step = t[1];
    const mantissa = step / 10 ** Math.floor(Math.log10(step));
    assert.ok(
      [1, 2, 2.5, 5].some((m) => Math.abs(m - mantissa) < 1e-9),
      `${max}: step ${step}`,
    );
    assert.ok(t.every((v, i) => Math.abs(v - i * step) < 1e-9));
  }
  assert.deepEqual(ticks(0), [0, 1]);
});

test('report figures are self-contained SVG files; dashboard charts are CSS-styled fragments', () => {
  const figures = [
    lines({
      title: 'A & B',
      series: [
        {
          name: 'x',
          points: [
            [0, 1],
            [2, 5],
          ],
        },
      ],
      xLabel: 'x',
      yLabel: 'y',
      target: { value: 4, label: 'target' },
    }),
    bars({ title: 'bars', groups: ['a', 'b'], series: [{ name: 's', values: [1, null] }], yLabel: 'ms' }),
    scatterPanels({ title: 'scatter', panels: [{ title: 'p', series: [{ name: 's', points: [[1, 2]] }] }], xLabel: 'x', yLabel: 'y', logY: true }),
  ];
  for (const svg of figures) {
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svg, /<style>\.grid\{[^}]+\}\.axis\{[^}]+\}<\/style>/);
    assert.equal(svg.match(/<svg/g)?.length, svg.match(/<\/svg>/g)?.length);
  }
  assert.match(figures[0], /A &amp; B/);
  const live = lineChart({ series: [{ name: 'p99', color: '#f00', values: [null, 1, 2, null, 3] }], unit: ' ms', refs: [{ value: 2.5, label: 'budget', color: '#0f0' }] });
  assert.doesNotMatch(live, /<style>|xmlns/);
  assert.match(live, /class="grid"/);
  assert.equal(live.match(/M/g)?.length, 2, 'the line breaks at the missing sample');
});

test('numbers print short: trailing zeros dropped, thousands as k', () => {
  assert.deepEqual(
    [8, 0.25, 1.24, 1234, 10000, 0, 0.003].map((v) => fmt(v, ' ms')),
    ['8 ms', '0.25 ms', '1.24 ms', '1.2k ms', '10k ms', '0 ms', '0.003 ms'],
  );
});
