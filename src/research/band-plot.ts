import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { StepQuartiles } from './step-quartiles.ts';

/** One method's curve: its median over runs at each step, with the quartiles as its band. */
export interface BandSeries {
  label: string;
  colour: string;
  points: readonly StepQuartiles[];
}

/** A reference drawn dashed without a band (e.g. the supervised ceiling): (x, y) points. */
export interface DashedSeries {
  label: string;
  colour: string;
  points: readonly [number, number][];
}

export interface BandPlot {
  title: string;
  /** The y axis's title; y runs from 0 to 1. */
  y: string;
  series: readonly BandSeries[];
  dashed?: readonly DashedSeries[];
  /** Steps marked with a vertical rule (e.g. where the difficulty changed). */
  markers?: readonly number[];
}

/** One layer of a layered spec, as vega-lite's exported TopLevelSpec has it. */
type Layer = Extract<TopLevelSpec, { layer: unknown }>['layer'][number];

const step = { field: 'step', type: 'quantitative', title: 'step' } as const;

/**
 * The Vega-Lite spec of a band plot: per series the interquartile band (translucent) under its
 * median line, the dashed references, rules at the markers, one legend of every label in order.
 */
export function bandPlotSpec(p: BandPlot): TopLevelSpec {
  const dashed = p.dashed ?? [];
  const labels = [...p.series, ...dashed];
  const colour = {
    field: 'label',
    type: 'nominal',
    title: null,
    // Fixed so each method keeps its own colour and the legend lists them in the given order.
    scale: { domain: labels.map((s) => s.label), range: labels.map((s) => s.colour) },
    // A line per label, not the band's translucent swatch.
    legend: { symbolType: 'stroke', symbolOpacity: 1, symbolStrokeWidth: 2 },
  } as const;
  const bands = p.series.flatMap((s) => s.points.map((q) => ({ label: s.label, ...q })));
  const refs = dashed.flatMap((s) => s.points.map(([x, y]) => ({ label: s.label, step: x, y })));
  const markers = (p.markers ?? []).map((m) => ({ step: m }));
  const layers: Layer[] = [
    {
      data: { values: bands },
      mark: { type: 'area', opacity: 0.2 },
      encoding: {
        x: step,
        y: {
          field: 'q1',
          type: 'quantitative',
          scale: { domain: [0, 1], nice: false },
          title: p.y,
        },
        y2: { field: 'q3' },
        color: colour,
      },
    },
    {
      data: { values: bands },
      mark: { type: 'line', strokeWidth: 2 },
      encoding: { x: step, y: { field: 'median', type: 'quantitative' }, color: colour },
    },
  ];
  if (refs.length > 0)
    layers.push({
      data: { values: refs },
      mark: { type: 'line', strokeWidth: 2, strokeDash: [5, 3] },
      encoding: { x: step, y: { field: 'y', type: 'quantitative' }, color: colour },
    });
  if (markers.length > 0)
    layers.push({
      data: { values: markers },
      mark: { type: 'rule', color: '#999', strokeDash: [4, 3] },
      encoding: { x: step },
    });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: p.title,
    width: 600,
    height: 260,
    background: 'white',
    layer: layers,
  };
}

/** The band plot as SVG text, rendered headlessly (no DOM, no canvas). */
export async function bandPlotSvg(p: BandPlot): Promise<string> {
  const view = new vega.View(vega.parse(compile(bandPlotSpec(p)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
