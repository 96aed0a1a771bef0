// Statistics shared by the benchmarks.
'use strict';

/** The p-th percentile (nearest rank) of ascending `sorted` values; NaN when there are none. */
function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

module.exports = { percentile };
