/**
 * The `q`-quantile (0…1) of `values` by nearest rank; `NaN` for no values.
 *
 * @example
 * ```ts
 * quantile([3, 1, 2], 0.5); // 2
 * ```
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/**
 * Median, min and max of `values`.
 *
 * @example
 * ```ts
 * spread([5, 1, 3]); // { median: 3, min: 1, max: 5 }
 * ```
 */
export function spread(values: readonly number[]): { median: number; min: number; max: number } {
  return { median: quantile(values, 0.5), min: Math.min(...values), max: Math.max(...values) };
}
