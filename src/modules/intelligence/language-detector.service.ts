import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ClassificationGenericEnum, ClassificationSpecificEnum } from '../../common/wire/enums';
import { BlendWeights, DEFAULT_WEIGHTS, blendScores, guesslangScores, hljsScores, ranked } from './language/blend';
import { GuesslangModel, guesslangModel } from './language/guesslang-model';
import { Scores, hljsRelevance } from './language/hljs-scorer';
import { LanguageCode, TEXT_CODES } from './language/languages';
import { markdownScore, matchRules, proseFeatures, refineDialect } from './language/rules';

export interface LanguageClassification {
  generic: Extract<ClassificationGenericEnum, 'CODE' | 'TEXT'>;
  specific: ClassificationSpecificEnum;
}

/** Which evidence to use: both models (production), or one of them alone (to measure it). */
export type DetectionMode = 'blend' | 'guesslang' | 'hljs';

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

/** Rules and the prose test read this much; the models see the text capped further below. */
const MAX_INPUT_CHARS = 10_000;
/**
 * guesslang costs ~10-15 ms per call at best and grows with the text up to its 10 000-byte window
 * (~90 ms); the first 2 000 characters are plenty to tell languages apart.
 */
const GUESSLANG_INPUT_CHARS = 2_000;
/** highlight.js reads the same window (its cost grows with length too). */
const HLJS_MAX_CHARS = 2_000;

/** Markdown with less structure than this is prose (TEXT / txt) even if a model says md. */
const MARKDOWN_MIN_SCORE = 1;

const TEXT: LanguageClassification = { generic: 'TEXT', specific: 'txt' };

function classificationOf(code: ClassificationSpecificEnum): LanguageClassification {
  return { generic: TEXT_CODES.has(code) ? 'TEXT' : 'CODE', specific: code };
}

/** Start of the text, cut at a line end when one is near the cap. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return text.slice(0, cut > max * 0.8 ? cut : max);
}

/**
 * Offline detection of the language of a snippet:
 *  1. unambiguous rules (shebang, `<?php`, HTML doctype, `<?xml`, parseable JSON, `@echo off`, ...);
 *  2. plain English prose -> TEXT / txt;
 *  3. guesslang (@vscode/vscode-languagedetection) and highlight.js relevance, normalised and
 *     blended (weights in language/blend.ts);
 *  4. near-superset pairs (C/C++, JS/TS, CSS/SCSS, HTML/XML, INI/TOML) settled by syntax markers.
 */
@Injectable()
export class LanguageDetector implements OnApplicationShutdown {
  private static readonly logger = new Logger('LanguageDetector');
  private static modelFailureLogged = false;

  /** The shared, lazily loaded guesslang model (exposed for tests and health checks). */
  static get model(): GuesslangModel {
    return guesslangModel;
  }

  /**
   * Ends the model's worker thread with the app, last: detections still running during the
   * shutdown hooks (FormatClassifier finishes the refinement in flight) keep the model. Disposing
   * it earlier failed them over to highlight.js alone, saved that label, and the next refinement
   * loaded the model again after the app had closed.
   */
  async onApplicationShutdown(): Promise<void> {
    await guesslangModel.dispose();
  }

  /** Frees the guesslang model and its worker thread (POST /models/unload); the next detection loads it again. */
  unload(): Promise<void> {
    return guesslangModel.dispose();
  }

  async detect(text: string): Promise<LanguageClassification> {
    return (await this.analyze(text)).classification;
  }

  async analyze(raw: string, options: DetectOptions = {}): Promise<DetectionReport> {
    const mode = options.mode ?? 'blend';
    const weights = options.weights ?? DEFAULT_WEIGHTS;
    const { text, md, report } = this.cheap(raw);
    if (report) return report;

    const g: Scores = mode === 'hljs' ? new Map() : await this.guesslang(text);
    let h: Scores = new Map();
    if (mode !== 'guesslang') {
      const shortlist =
        mode === 'blend' && weights.shortlist > 0 && g.size
          ? ranked(g)
              .slice(0, weights.shortlist)
              .map(([c]) => c)
          : undefined;
      h = hljsScores(hljsRelevance(head(text, HLJS_MAX_CHARS), shortlist), weights.hljsPower);
    }
    const scores = blendScores(g, h, weights);
    const top = ranked(scores).slice(0, 5);
    if (!top.length) {
      return { classification: mode === 'blend' ? TEXT : classificationOf('UNKNOWN'), source: 'no-evidence' };
    }

    let best: ClassificationSpecificEnum = refineDialect(top[0][0], text);
    if (best === 'md' && md < MARKDOWN_MIN_SCORE) best = 'txt';
    return { classification: classificationOf(best), source: 'models', top };
  }

  /**
   * The part of `analyze` that needs no model (microseconds): empty input, an unambiguous rule
   * or plain prose. Null when only the models can tell.
   */
  quick(raw: string): LanguageClassification | null {
    return this.cheap(raw).report?.classification ?? null;
  }

  private cheap(raw: string): { text: string; md: number; report?: DetectionReport } {
    const full = typeof raw === 'string' ? raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') : '';
    if (!full.trim()) return { text: '', md: 0, report: { classification: TEXT, source: 'empty' } };
    const text = head(full, MAX_INPUT_CHARS);
    const rule = matchRules(text, full);
    if (rule) return { text, md: 0, report: { classification: classificationOf(rule.code), source: 'rule', rule: rule.rule } };
    const md = markdownScore(text);
    if (md < 2 && proseFeatures(text).isProse) return { text, md, report: { classification: TEXT, source: 'prose' } };
    return { text, md };
  }

  private async guesslang(text: string): Promise<Scores> {
    try {
      return guesslangScores(await guesslangModel.predict(head(text, GUESSLANG_INPUT_CHARS)));
    } catch (err) {
      // The model failed (to load): highlight.js and the rules still answer.
      if (!LanguageDetector.modelFailureLogged) {
        LanguageDetector.modelFailureLogged = true;
        LanguageDetector.logger.warn(`guesslang model unavailable, using highlight.js only: ${err instanceof Error ? err.message : String(err)}`);
      }
      return new Map();
    }
  }
}
