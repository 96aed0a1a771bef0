import type { ModelResult } from '@vscode/vscode-languagedetection';
import { GUESSLANG_TO_CODE, LanguageCode } from './languages';
import type { Scores } from './hljs-scorer';

/**
 * Turning both models' outputs into comparable per-language scores, and mixing them.
 *
 * - guesslang gives a softmax over 54 ids; we keep the ids we support, sum those that map to the
 *   same code and renormalise to 1 (its mass on unsupported languages says nothing about ours).
 * - highlight.js relevance grows with the length of the text and is not a probability; it is
 *   scaled by the best relevance (so the best grammar scores 1), sharpened with a power, and
 *   renormalised to 1. Grammars that hit an illegal construct score 0.
 */
export interface BlendWeights {
  guesslang: number;
  hljs: number;
  /** exponent on relevance / max relevance: higher trusts only the top grammars. */
  hljsPower: number;
  /**
   * When guesslang has an opinion, highlight.js only re-ranks its best `shortlist` languages
   * (0: all grammars). Cheaper (a handful of grammars instead of 35), and keeps grammars with
   * broad keyword lists from winning on text guesslang rules out.
   */
  shortlist: number;
}

/** Tuned on test/intelligence/fixtures/languages.json (see the accuracy spec for the numbers). */
export const DEFAULT_WEIGHTS: BlendWeights = { guesslang: 0.5, hljs: 0.5, hljsPower: 1, shortlist: 5 };

export function guesslangScores(results: readonly ModelResult[]): Scores {
  const scores: Scores = new Map();
  let total = 0;
  for (const { languageId, confidence } of results) {
    const code = GUESSLANG_TO_CODE.get(languageId);
    if (!code || !(confidence > 0)) continue;
    scores.set(code, (scores.get(code) ?? 0) + confidence);
    total += confidence;
  }
  if (total > 0) for (const [k, v] of scores) scores.set(k, v / total);
  return scores;
}

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

export function blendScores(guesslang: Scores, hljs: Scores, w: BlendWeights): Scores {
  // A model with nothing to say (text too short for guesslang, no grammar matched) gets no vote.
  const wg = guesslang.size ? w.guesslang : 0;
  const wh = hljs.size ? w.hljs : 0;
  const scores: Scores = new Map();
  if (wg + wh === 0) return scores;
  for (const [k, v] of guesslang) scores.set(k, (scores.get(k) ?? 0) + (wg * v) / (wg + wh));
  for (const [k, v] of hljs) scores.set(k, (scores.get(k) ?? 0) + (wh * v) / (wg + wh));
  return scores;
}

export function ranked(scores: Scores): Array<[LanguageCode, number]> {
  return [...scores.entries()].sort((a, b) => b[1] - a[1]);
}
