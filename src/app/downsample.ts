// Long runs, few points: min/max-preserving downsampling for the charts. The x axis is split into
// buckets; each bucket becomes two points (its first and last x), and each series takes, in the
// order they occurred, its minimum and maximum inside the bucket. A collapse to 0 or a single
// spike survives, whatever the zoom.

export type Series = (number | null)[];

export interface Columns {
  x: number[];
  ys: Series[];
}

/** At most `maxPoints` points (an even number ≥ 4); short inputs come back as they are. */
export function downsampleMinMax(data: Columns, maxPoints = 1000): Columns {
  const n = data.x.length;
  const limit = Math.max(4, Math.floor(maxPoints / 2) * 2);
  if (n <= limit) return data;
  const buckets = limit / 2;
  const x: number[] = [];
  const ys: Series[] = data.ys.map(() => []);
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor((b * n) / buckets);
    const hi = Math.floor(((b + 1) * n) / buckets); // exclusive
    if (hi <= lo) continue;
    x.push(data.x[lo], data.x[hi - 1]);
    data.ys.forEach((s, k) => {
      let minI = -1;
      let maxI = -1;
      for (let i = lo; i < hi; i++) {
        const y = s[i];
        if (y === null || !Number.isFinite(y)) continue;
        if (minI < 0 || y < (s[minI] as number)) minI = i;
        if (maxI < 0 || y > (s[maxI] as number)) maxI = i;
      }
      if (minI < 0) {
        ys[k].push(null, null);
      } else if (minI <= maxI) {
        ys[k].push(s[minI], s[maxI]);
      } else {
        ys[k].push(s[maxI], s[minI]);
      }
    });
  }
  return { x, ys };
}
