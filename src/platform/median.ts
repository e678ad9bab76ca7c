// The median, for every layer that summarises timings or runs (a table's runs, a backend's probe).

/** The median; of an even count the mean of the middle two (Infinity stands for "never"). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
