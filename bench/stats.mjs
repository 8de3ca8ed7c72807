// Small statistics helpers shared by the benchmarks.

/** The value at quantile q (0..1) of a list of numbers. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** The median of a list of numbers. */
export function median(values) {
  return quantile(values, 0.5);
}
