/** Reciprocal rank fusion constant (Cormack et al.). */
export const RRF_K = 60;

/**
 * Several rankings of ids fused by reciprocal rank, equal weights: [id, score] best first (ties
 * by id), the score divided by the best possible one (first in every list: 1).
 */
export function fusedScores(lists: string[][]): Array<[string, number]> {
  const fused = new Map<string, number>();
  for (const ids of lists) ids.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  const best = lists.length / (RRF_K + 1);
  return [...fused.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id, score]) => [id, score / best]);
}

/** The ids of `fusedScores`, at most `limit`. */
export function fuseRanks(lists: string[][], limit: number): string[] {
  return fusedScores(lists)
    .slice(0, limit)
    .map(([id]) => id);
}
