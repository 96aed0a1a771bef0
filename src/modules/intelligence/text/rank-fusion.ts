/** Reciprocal rank fusion constant (Cormack et al.). */
export const RRF_K = 60;

/**
 * Several rankings of ids fused by reciprocal rank (each list's weight, 1 by default, over
 * RRF_K + rank): [id, score] best first (ties by id), the score divided by the best possible one
 * (first in every list: 1).
 */
export function fusedScores(lists: string[][], weights?: number[]): Array<[string, number]> {
  const fused = new Map<string, number>();
  lists.forEach((ids, list) =>
    ids.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + (weights?.[list] ?? 1) / (RRF_K + rank + 1))),
  );
  const best = (weights ? weights.reduce((a, b) => a + b, 0) : lists.length) / (RRF_K + 1) || 1;
  return [...fused.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id, score]) => [id, score / best]);
}

/** The ids of `fusedScores`, at most `limit`. */
export function fuseRanks(lists: string[][], limit: number, weights?: number[]): string[] {
  return fusedScores(lists, weights)
    .slice(0, limit)
    .map(([id]) => id);
}
