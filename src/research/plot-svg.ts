/** A line for the SVG plot: points (x, y) with y in [0, 1]. */
export interface Series {
  label: string;
  color: string;
  points: readonly [number, number][];
  dashed?: boolean;
}

const W = 720;
const H = 300;
const PAD = { left: 48, right: 150, top: 28, bottom: 36 };

function esc(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
  );
}

/**
 * A small dependency-free line chart as SVG text: y from 0 to 1, x in steps, vertical markers
 * (e.g. where the difficulty changed), a legend on the right.
 */
export function lineChartSvg(
  title: string,
  series: readonly Series[],
  markers: readonly number[] = [],
): string {
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const xMax = Math.max(1, ...xs);
  const px = (x: number) => PAD.left + (x / xMax) * (W - PAD.left - PAD.right);
  const py = (y: number) =>
    PAD.top + (1 - Math.max(0, Math.min(1, y))) * (H - PAD.top - PAD.bottom);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${PAD.left}" y="16" font-size="13" font-weight="bold">${esc(title)}</text>`,
  ];
  for (const y of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y)}" y2="${py(y)}" stroke="#ddd"/>`,
    );
    out.push(`<text x="${PAD.left - 6}" y="${py(y) + 4}" text-anchor="end">${y.toFixed(2)}</text>`);
  }
  const ticks = 5;
  for (let i = 0; i <= ticks; i++) {
    const x = Math.round((xMax * i) / ticks);
    out.push(`<text x="${px(x)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${x}</text>`);
  }
  out.push(
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 4}" text-anchor="middle">step</text>`,
  );
  for (const m of markers) {
    out.push(
      `<line x1="${px(m)}" x2="${px(m)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#999" stroke-dasharray="4 3"/>`,
    );
  }
  series.forEach((s, i) => {
    if (s.points.length > 0) {
      const d = s.points
        .map(([x, y], j) => `${j ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`)
        .join('');
      out.push(
        `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`,
      );
    }
    const ly = PAD.top + 14 + i * 16;
    out.push(
      `<line x1="${W - PAD.right + 10}" x2="${W - PAD.right + 30}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`,
    );
    out.push(`<text x="${W - PAD.right + 36}" y="${ly}">${esc(s.label)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
