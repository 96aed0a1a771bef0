import { Injectable } from '@nestjs/common';
import { ClassificationGenericEnum, ClassificationSpecificEnum } from '../../common/wire/enums';
import { BlendWeights, DEFAULT_WEIGHTS, blendScores, hljsScores, ranked } from './language/blend';
import { Scores, hljsRelevance } from './language/hljs-scorer';
import { languageModel } from './language/language-model';
import { LanguageCode, TEXT_CODES } from './language/languages';
import { refineDialect } from './language/dialects';
import { ProseFeatures, markdownScore, proseFeatures } from './language/prose';
import { ruledOut } from './language/ruled-out';
import { isShellSession, matchRules } from './language/rules';

export interface LanguageClassification {
  generic: Extract<ClassificationGenericEnum, 'CODE' | 'TEXT'>;
  specific: ClassificationSpecificEnum;
}

/** Which evidence to use: the classifier and highlight.js (production), or one of them alone (to measure it). */
export type DetectionMode = 'blend' | 'model' | 'hljs';

export interface DetectionReport {
  classification: LanguageClassification;
  /** what decided: the empty input, a rule, the prose test, or the model scores. */
  source: 'empty' | 'rule' | 'prose' | 'models' | 'no-evidence';
  rule?: string;
  /** best few languages by score (models only). */
  top?: Array<[LanguageCode, number]>;
}

export interface DetectOptions {
  mode?: DetectionMode;
  weights?: BlendWeights;
}

/** Rules and the prose test read this much; the classifier and highlight.js see the text capped further below. */
const MAX_INPUT_CHARS = 10_000;
/** The classifier reads this much (features.ts caps it there too). */
const MODEL_INPUT_CHARS = 2_000;
/** highlight.js reads a smaller window (its cost grows with length; the classifier has the rest). */
const HLJS_MAX_CHARS = 1_000;

/**
 * Markdown with less structure than this is prose (TEXT / txt) even if a model says md; English
 * with this much (a link, a heading over a paragraph, bold text, a table, a fence) is not plain
 * prose, and the models decide.
 */
const MARKDOWN_MIN_SCORE = 1;

/**
 * Code rather than text that mentions code: code characters (3 in 100), a call, an assignment,
 * an arrow or a line ending in `;`, `{` or `}`, and few English function words (under 30%: the
 * release note "run_command() had a bug that caused..." is text). Chosen on README code blocks and
 * Debian's plain-text docs (ml/language/README.md), not on the held-out set.
 */
function readsLikeCode(text: string, f: ProseFeatures): boolean {
  return f.codeCharRatio >= 0.03 && f.stopwordRatio < 0.3 && /[\w$]\(|[;{}][ \t]*$|=>|\s=\s/m.test(text);
}

const TEXT: LanguageClassification = { generic: 'TEXT', specific: 'txt' };

/**
 * Whether the classifier's first language leads its second by more than highlight.js's whole
 * weight could make up: the blend gives highlight.js's scores (summing to 1) weight `hljs`
 * against the classifier's `model`, so no language can pass one that leads by more than hljs / model.
 */
function leadsBeyondHljs(model: Scores, w: BlendWeights): boolean {
  if (!model.size || w.model <= 0) return false;
  let first = 0;
  let second = 0;
  for (const p of model.values()) {
    if (p > first) [first, second] = [p, first];
    else if (p > second) second = p;
  }
  return w.model * (first - second) > w.hljs;
}

function classificationOf(code: ClassificationSpecificEnum): LanguageClassification {
  return { generic: TEXT_CODES.has(code) ? 'TEXT' : 'CODE', specific: code };
}

/** Start of the text, cut at a line end when one is near the cap. */
export function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return text.slice(0, cut > max * 0.8 ? cut : max);
}

/**
 * Offline detection of the language of a snippet, synchronous and cheap (well under 5 ms):
 *  1. unambiguous rules (shebang, `<?php`, HTML doctype, `<?xml`, parseable JSON, `@echo off`,
 *     PowerShell's comment-based help, ...);
 *  2. plain English prose -> TEXT / txt;
 *  3. Trove's language classifier (language/language-model.ts: a linear model over token, line
 *     and character n-grams trained on Debian and npm packages, shipped as a data file),
 *     its few best languages re-ranked with highlight.js relevance (weights in language/blend.ts);
 *  4. a language whose grammar cannot hold the text gives way to the next best (JSON with `=>` or
 *     bare words outside its strings, JavaScript with Perl or Dart syntax, Java with C# syntax,
 *     Kotlin with Scala syntax, Python under an INI section header, CSS with element tags);
 *  5. near-superset pairs (C/C++, JS/TS, CSS/SCSS, HTML/XML, INI/TOML, shell/Dockerfile) settled
 *     by syntax markers only one of them allows;
 *  6. commands typed at a shell (`npm install -D x`, `$ git clone ...`) are shell, or a Dockerfile's
 *     `RUN` lines when the models say so: whatever else their words read like (prose, YAML).
 */
@Injectable()
export class LanguageDetector {
  detect(text: string): Promise<LanguageClassification> {
    return Promise.resolve(this.detectSync(text));
  }

  detectSync(text: string): LanguageClassification {
    return this.analyzeSync(text).classification;
  }

  analyze(raw: string, options: DetectOptions = {}): Promise<DetectionReport> {
    return Promise.resolve(this.analyzeSync(raw, options));
  }

  analyzeSync(raw: string, options: DetectOptions = {}): DetectionReport {
    const mode = options.mode ?? 'blend';
    const weights = options.weights ?? DEFAULT_WEIGHTS;
    const { text, md, shell, prose, report } = this.cheap(raw);
    if (report) return report;

    const m: Scores = (mode === 'hljs' ? null : languageModel()?.predict(head(text, MODEL_INPUT_CHARS))) ?? new Map();
    if (mode === 'blend' && leadsBeyondHljs(m, weights)) {
      // highlight.js can only add its weight to the shortlist: it cannot pass this lead, so
      // when the classifier's first language is the answer, the blend would give the same one.
      const settled = this.decide(text, m, md, shell, prose);
      if (settled.first) return settled.report;
    }
    let h: Scores = new Map();
    if (mode !== 'model') {
      const shortlist =
        mode === 'blend' && weights.shortlist > 0 && m.size
          ? ranked(m)
              .slice(0, weights.shortlist)
              .map(([c]) => c)
          : undefined;
      h = hljsScores(hljsRelevance(head(text, HLJS_MAX_CHARS), shortlist), weights.hljsPower);
    }
    const scores = blendScores(m, h, weights);
    if (!scores.size) {
      return { classification: mode === 'blend' ? TEXT : classificationOf('UNKNOWN'), source: 'no-evidence' };
    }
    return this.decide(text, scores, md, shell, prose).report;
  }

  /**
   * The answer from the models' scores: the best language the grammar allows, Markdown without
   * its structure read as text or as the code it holds, shell commands as shell. `first`: the
   * answer is the best-scored language itself (the order of the others did not matter).
   */
  private decide(
    text: string,
    scores: Scores,
    md: number,
    shell: boolean,
    prose: ProseFeatures | undefined,
  ): { report: DetectionReport; first: boolean } {
    const top = ranked(scores).slice(0, 5);
    // The best language whose grammar allows the text (syntax it can never have rules it out).
    const fits = (from: number) => top.findIndex(([code], i) => i >= from && !ruledOut(code, text));
    const index = fits(0);
    let first = index <= 0;
    let best: ClassificationSpecificEnum = refineDialect(top[Math.max(index, 0)][0], text);
    if (best === 'md' && md < MARKDOWN_MIN_SCORE) {
      // Markdown without its structure: plain text, or code lifted out of a README (the
      // classifier learnt README code blocks as Markdown): then the next language that fits
      const next = readsLikeCode(text, prose ?? proseFeatures(text)) ? fits(index + 1) : -1;
      best = next >= 0 ? refineDialect(top[next][0], text) : 'txt';
      first = false;
    }
    // commands typed at a shell: shell, unless the models read a Dockerfile's RUN lines
    if (shell && best !== 'sh' && best !== 'dockerfile') {
      return { report: { classification: classificationOf('sh'), source: 'rule', rule: 'shell-commands', top }, first };
    }
    return { report: { classification: classificationOf(best), source: 'models', top }, first };
  }

  /**
   * The part of `analyze` that needs no model (microseconds): empty input, an unambiguous rule
   * or plain prose. Null when only the models can tell.
   */
  quick(raw: string): LanguageClassification | null {
    return this.cheap(raw).report?.classification ?? null;
  }

  private cheap(raw: string): {
    text: string;
    md: number;
    shell: boolean;
    prose?: ProseFeatures;
    report?: DetectionReport;
  } {
    const full = typeof raw === 'string' ? raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') : '';
    if (!full.trim()) return { text: '', md: 0, shell: false, report: { classification: TEXT, source: 'empty' } };
    const text = head(full, MAX_INPUT_CHARS);
    const rule = matchRules(text, full);
    if (rule)
      return {
        text,
        md: 0,
        shell: false,
        report: { classification: classificationOf(rule.code), source: 'rule', rule: rule.rule },
      };
    const md = markdownScore(text);
    // (`npm install express` reads like a sentence)
    const shell = isShellSession(text);
    // (read once: the models' answer may need them again)
    const prose = !shell && md < MARKDOWN_MIN_SCORE ? proseFeatures(text) : undefined;
    if (prose?.isProse) return { text, md, shell, report: { classification: TEXT, source: 'prose' } };
    return { text, md, shell, prose };
  }
}
