import { describe, expect, it } from 'vitest';
import { bandPlotSvg, type BandPlot } from './band-plot.ts';
import { stepQuartiles } from './step-quartiles.ts';

const curve = (slope: number): [number, number][] =>
  [0, 10, 20, 30].map((step) => [step, Math.min(1, (slope * step) / 30)]);

const plot: BandPlot = {
  title: 'listlang: eval <median> & band',
  y: 'eval_accuracy',
  series: [
    { label: 'none', colour: '#6b7280', points: stepQuartiles([curve(0.1), curve(0.2)]) },
    { label: 'mentor', colour: '#2563eb', points: stepQuartiles([curve(0.6), curve(0.9)]) },
  ],
  dashed: [
    {
      label: 'supervised',
      colour: '#111827',
      points: [
        [10, 0.5],
        [30, 0.8],
      ],
    },
  ],
  markers: [10],
};

describe('bandPlotSvg', () => {
  it("draws each series' band in its colour and labels every series in the legend", async () => {
    const svg = await bandPlotSvg(plot);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('listlang: eval &lt;median&gt; &amp; band');
    for (const label of ['none', 'mentor', 'supervised']) expect(svg).toContain(`>${label}</text>`);
    const bands = [...svg.matchAll(/aria-roledescription="area mark" d="M[^"]+" fill="([^"]+)"/g)];
    expect(bands.map((m) => m[1])).toEqual(['#6b7280', '#2563eb']);
    expect(svg).toMatch(/stroke="#111827"[^>]*stroke-dasharray="5,3"/);
    expect(svg).toContain('aria-roledescription="rule mark"');
  });

  it('gives the same SVG for the same input', async () => {
    expect(await bandPlotSvg(plot)).toBe(await bandPlotSvg(plot));
  });
});
