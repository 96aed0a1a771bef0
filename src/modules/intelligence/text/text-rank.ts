/**
 * Sentence centrality (TextRank over TF-IDF cosine similarity): a sentence is central
 * when it shares weighted vocabulary with many other central sentences. Deterministic:
 * the same sentences always give the same scores, ties go to the earlier sentence.
 */
const DAMPING = 0.85;
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-10;

/** One score per sentence (they sum to 1); `terms[i]` are the content terms of sentence i. */
export function textRank(terms: string[][]): number[] {
  const n = terms.length;
  if (n === 0) return [];
  if (n === 1) return [1];

  const df = new Map<string, number>();
  for (const sentence of terms) for (const term of new Set(sentence)) df.set(term, (df.get(term) ?? 0) + 1);
  const vectors = terms.map((sentence) => {
    const tf = new Map<string, number>();
    for (const term of sentence) tf.set(term, (tf.get(term) ?? 0) + 1);
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of tf) {
      const weight = count * (Math.log((n + 1) / (df.get(term)! + 1)) + 1);
      vector.set(term, weight);
      norm += weight * weight;
    }
    return { vector, norm: Math.sqrt(norm) };
  });

  const weights: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const a = vectors[i];
      const b = vectors[j];
      if (!a.norm || !b.norm) continue;
      const [small, large] = a.vector.size <= b.vector.size ? [a.vector, b.vector] : [b.vector, a.vector];
      let dot = 0;
      for (const [term, weight] of small) dot += weight * (large.get(term) ?? 0);
      const similarity = dot / (a.norm * b.norm);
      weights[i][j] = similarity;
      weights[j][i] = similarity;
    }
  }
  const outgoing = weights.map((row) => row.reduce((sum, w) => sum + w, 0));

  let scores = new Array<number>(n).fill(1 / n);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration += 1) {
    // Sentences sharing nothing with the others spread their score evenly (dangling nodes).
    let dangling = 0;
    for (let j = 0; j < n; j += 1) if (outgoing[j] === 0) dangling += scores[j];
    const next = new Array<number>(n);
    let delta = 0;
    for (let i = 0; i < n; i += 1) {
      let incoming = 0;
      for (let j = 0; j < n; j += 1) if (weights[j][i] > 0) incoming += (weights[j][i] / outgoing[j]) * scores[j];
      next[i] = (1 - DAMPING) / n + DAMPING * (incoming + dangling / n);
      delta += Math.abs(next[i] - scores[i]);
    }
    scores = next;
    if (delta < TOLERANCE) break;
  }
  return scores;
}

/** Indices of the `k` best-scored items, best first; ties go to the lower index. */
export function topIndices(scores: number[], k: number): number[] {
  return scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, k))
    .map((s) => s.index);
}
