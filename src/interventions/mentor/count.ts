/** The most common value and how often it occurs (ties: the smallest value). */
export function mode(values: readonly number[]): { value: number; count: number } {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = { value: NaN, count: 0 };
  for (const [value, count] of counts) {
    if (count > best.count || (count === best.count && value < best.value)) best = { value, count };
  }
  return best;
}

/** 1st, 2nd, 3rd, 4th… */
export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}
