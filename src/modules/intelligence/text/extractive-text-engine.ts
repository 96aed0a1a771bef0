import { Injectable } from '@nestjs/common';
import { outlineCode } from './code-outline';
import { languageName } from './language-names';
import { AssetDescriptionInput, TextGenerator } from './text-generator';
import { textRank, topIndices } from './text-rank';
import { WinkAnalysis, WinkToken, analyse, tokensOf } from './wink';

/** Bounds that keep every call fast on large inputs (TextRank is quadratic in sentences). */
const MAX_CHARS = 40_000;
const MAX_SENTENCES = 300;
const TITLE_MAX = 80;

/** Content terms of a token list: lemmas of words that are not stop words. */
function contentTerms(tokens: WinkToken[]): string[] {
  return tokens
    .filter((t) => t.type === 'word' && !t.stop && /[a-z0-9]/i.test(t.lemma) && t.lemma.length > 1)
    .map((t) => t.lemma);
}

/** Prose only: fenced code blocks and inline code spans are not sentences. */
function prose(text: string): string {
  return text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/`[^`\n]*`/g, (span) => span.slice(1, -1))
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .slice(0, MAX_CHARS);
}

function clean(sentence: string): string {
  return sentence.replace(/\s+/g, ' ').trim();
}

/** Proper nouns and words like "PostgreSQL" keep their case; other words are lower-cased. */
function displayForm(token: WinkToken): string {
  return token.pos === 'PROPN' || /.[A-Z]/.test(token.text) ? token.text : token.text.toLowerCase();
}

/** For overlap checks only: "Nodes" (tagged a proper noun, so not lemmatised) is "node". */
function stem(word: string): string {
  return word.length > 3 ? word.replace(/s$/, '') : word;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The offline TextGenerator: extractive, deterministic, no model download.
 * - summarize: the most central sentences (TextRank over TF-IDF cosine), in reading order;
 * - keyPhrases: wink-nlp noun chunks ranked by how often they and their words occur;
 * - title: the leading key phrases;
 * - describeAsset: kind + language + outline (definitions, imports) or central sentences.
 */
@Injectable()
export class ExtractiveTextEngine implements TextGenerator {
  readonly engine = 'extractive';

  async summarize(texts: string[], maxSentences: number): Promise<string> {
    return this.summarizeSync(texts, maxSentences);
  }

  async keyPhrases(text: string, n: number): Promise<string[]> {
    return this.keyPhrasesOf(analyse(prose(text)), n);
  }

  async title(texts: string[]): Promise<string> {
    const joined = texts.map(prose).join('\n\n').slice(0, MAX_CHARS);
    if (!joined.trim()) return '';
    const analysis = analyse(joined);
    const phrases = this.keyPhrasesOf(analysis, 2);
    if (phrases.length === 0) {
      // No noun at all: the first words of the first sentence.
      const first = clean(analysis.sentences[0]?.text ?? joined).replace(/[.!?:;,]+$/, '');
      return capitalise(first.split(' ').slice(0, 8).join(' ')).slice(0, TITLE_MAX);
    }
    const both = phrases.length > 1 ? `${phrases[0]} and ${phrases[1]}` : phrases[0];
    return capitalise(both.length <= TITLE_MAX ? both : phrases[0].slice(0, TITLE_MAX));
  }

  async describeAsset(input: AssetDescriptionInput): Promise<string> {
    const language = languageName(input.specific);
    const lines = input.text.split('\n').filter((l) => l.trim()).length;
    const named = input.name ? `"${input.name}"` : 'This asset';
    const parts: string[] = [];
    if (input.generic === 'CODE') {
      const outline = outlineCode(input.text.slice(0, MAX_CHARS));
      parts.push(`${named} is a ${language} code snippet of ${lines} ${lines === 1 ? 'line' : 'lines'}.`);
      if (outline.definitions.length) {
        const shown = outline.definitions.slice(0, 12).map((d) => `${d.kind} \`${d.name}\``);
        const more = outline.definitions.length - shown.length;
        parts.push(`It defines ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`);
      } else {
        parts.push('It defines no named functions or types; it is a sequence of statements.');
      }
      if (outline.imports.length)
        parts.push(
          `It uses ${outline.imports
            .slice(0, 10)
            .map((i) => `\`${i}\``)
            .join(', ')}.`,
        );
      const commentary = outline.comments.join('. ');
      if (commentary) {
        const summary = this.summarizeSync([commentary], 2);
        if (summary) parts.push(`Its comments say: ${summary}`);
      }
    } else {
      const words = input.text.split(/\s+/).filter(Boolean).length;
      const what =
        input.generic === 'TEXT' || input.generic === 'UNKNOWN'
          ? 'text'
          : input.generic.toLowerCase().replace(/_/g, ' ');
      const format = ['txt', 'text', 'UNKNOWN'].includes(input.specific) ? '' : ` in ${language}`;
      parts.push(`${named} is a ${what} note${format} of ${words} ${words === 1 ? 'word' : 'words'}.`);
      const summary = this.summarizeSync([input.text], 3);
      if (summary) parts.push(`Its central points: ${summary}`);
    }
    const phrases = this.keyPhrasesOf(
      analyse(
        prose(input.generic === 'CODE' ? outlineCode(input.text.slice(0, MAX_CHARS)).comments.join('. ') : input.text),
      ),
      6,
    );
    if (phrases.length) parts.push(`Key phrases: ${phrases.join(', ')}.`);
    return parts.join('\n\n');
  }

  private summarizeSync(texts: string[], maxSentences: number): string {
    const sentences: { text: string; terms: string[] }[] = [];
    for (const text of texts) {
      const body = prose(text);
      if (!body.trim()) continue;
      for (const sentence of analyse(body).sentences) {
        const cleaned = clean(sentence.text);
        const terms = contentTerms(sentence.tokens);
        if (cleaned && terms.length) sentences.push({ text: cleaned, terms });
        if (sentences.length >= MAX_SENTENCES) break;
      }
      if (sentences.length >= MAX_SENTENCES) break;
    }
    if (sentences.length === 0 || maxSentences < 1) return '';
    // The same sentence said twice counts once (its later copies are not candidates).
    const firstOf = new Map<string, number>();
    sentences.forEach((s, i) => firstOf.has(s.text.toLowerCase()) || firstOf.set(s.text.toLowerCase(), i));
    const scores = textRank(sentences.map((s) => s.terms)).map((score, i) =>
      firstOf.get(sentences[i].text.toLowerCase()) === i ? score : -1,
    );
    const chosen = topIndices(scores, Math.min(maxSentences, firstOf.size)).sort((a, b) => a - b);
    return chosen.map((i) => sentences[i].text).join(' ');
  }

  private keyPhrasesOf(analysis: WinkAnalysis, n: number): string[] {
    const tokens = tokensOf(analysis);
    const frequency = new Map<string, number>();
    for (const term of contentTerms(tokens)) frequency.set(term, (frequency.get(term) ?? 0) + 1);

    const candidates = new Map<string, { display: string; count: number; first: number; words: string[] }>();
    for (const chunk of analysis.chunks) {
      const words = tokens
        .slice(chunk.start, chunk.end + 1)
        .filter((t) => t.type === 'word' && !t.stop && t.lemma.length > 1 && /[a-z]/i.test(t.lemma));
      if (words.length === 0) continue;
      const key = words.map((t) => t.lemma).join(' ');
      const display = words.map(displayForm).join(' ');
      const existing = candidates.get(key);
      if (existing) existing.count += 1;
      else candidates.set(key, { display, count: 1, first: chunk.start, words: words.map((t) => t.lemma) });
    }
    const ranked = [...candidates.values()]
      .map((c) => ({ ...c, score: 2 * c.count + c.words.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0) }))
      .sort((a, b) => b.score - a.score || a.first - b.first);

    const chosen: typeof ranked = [];
    for (const candidate of ranked) {
      if (chosen.length >= n) break;
      const mine = candidate.words.map(stem);
      const overlaps = chosen.some((c) => {
        const theirs = c.words.map(stem);
        return mine.every((w) => theirs.includes(w)) || theirs.every((w) => mine.includes(w));
      });
      if (!overlaps) chosen.push(candidate);
    }
    return chosen.map((c) => c.display);
  }
}
