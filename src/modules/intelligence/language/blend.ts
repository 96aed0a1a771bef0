import { LanguageCode } from './languages';
import type { Scores } from './hljs-scorer';

/**
 * Turning both models' outputs into comparable per-language scores, and mixing them.
 *
 * - the classifier gives probabilities over its languages (language-model.ts);
 * - highlight.js relevance grows with the length of the text and is not a probability; it is
 *   scaled by the best relevance (so the best grammar scores 1), sharpened with a power, and
 *   renormalised to 1. Grammars that hit an illegal construct score 0.
 */
export interface BlendWeights {
  model: number;
  hljs: number;
  /** exponent on relevance / max relevance: higher trusts only the top grammars. */
  hljsPower: number;
  /**
   * When the classifier has an opinion, highlight.js only re-ranks its best `shortlist` languages
   * (0: all grammars). Cheaper (a handful of grammars instead of 35), and keeps grammars with
   * broad keyword lists from winning on text the classifier rules out.
   */
  shortlist: number;
}

/** Tuned on test/intelligence/fixtures/languages.json (see the accuracy spec for the numbers). */
export const DEFAULT_WEIGHTS: BlendWeights = { model: 0.8, hljs: 0.2, hljsPower: 1, shortlist: 3 };

export function hljsScores(relevance: Scores, power: number): Scores {
  const scores: Scores = new Map();
  const max = Math.max(0, ...relevance.values());
  if (max <= 0) return scores;
  let total = 0;
  for (const [code, r] of relevance) {
    if (r <= 0) continue;
    const s = Math.pow(r / max, power);
    scores.set(code, s);
    total += s;
  }
  for (const [k, v] of scores) scores.set(k, v / total);
  return scores;
}

export function blendScores(model: Scores, hljs: Scores, w: BlendWeights): Scores {
  // A model with nothing to say (no grammar matched) gets no vote.
  const wg = model.size ? w.model : 0;
  const wh = hljs.size ? w.hljs : 0;
  const scores: Scores = new Map();
  if (wg + wh === 0) return scores;
  for (const [k, v] of model) scores.set(k, (scores.get(k) ?? 0) + (wg * v) / (wg + wh));
  for (const [k, v] of hljs) scores.set(k, (scores.get(k) ?? 0) + (wh * v) / (wg + wh));
  return scores;
}

export function ranked(scores: Scores): Array<[LanguageCode, number]> {
  return [...scores.entries()].sort((a, b) => b[1] - a[1]);
}
