import { Injectable } from '@nestjs/common';
import { outlineCode } from '../intelligence/text/code-outline';
import { bestPassages, contentTerms, passagesOf, rankPassages } from '../intelligence/text/extractive-answerer';
import { ExtractiveTextEngine } from '../intelligence/text/extractive-text-engine';
import { CANNOT_GENERATE, commitSubject, offlineRequest } from '../intelligence/text/offline-requests';
import { Snippet } from './snippet-cache';
import { QGPTQuestionAnswerWire } from './wire/qgpt.wire';

/** Answers the offline engine gives. */
const ANSWERS = 3;

/** The offline engine's answers and follow-up questions: quoted passages, never generated text. */
@Injectable()
export class OfflineAnswers {
  constructor(private readonly extractive: ExtractiveTextEngine) {}

  /**
   * The passages of the snippets that best answer the query, each with its score. A request for
   * new text is answered with the one sentence saying a model is needed (then the closest
   * snippets found in the store, never the client's own input quoted back); a commit message
   * with a subject built from the files and symbols the diff touches.
   */
  answers(query: string, snippets: Snippet[]): QGPTQuestionAnswerWire[] {
    const request = offlineRequest(query);
    if (request.kind === 'commit-message') {
      const subject = commitSubject(
        query,
        snippets.map((s) => ({ path: s.path, text: s.text })),
      );
      return [subject ? { score: 1, text: subject } : { score: 0, text: CANNOT_GENERATE }];
    }
    if (request.kind === 'generate') {
      const found = quote(
        query,
        snippets.filter((s) => s.retrieved),
      );
      return [{ score: 0, text: CANNOT_GENERATE }, ...found];
    }
    const quoted = quote(query, snippets);
    if (quoted.length === 0)
      return [
        {
          score: 0,
          text: 'None of the relevant snippets matches this question (the offline engine only quotes passages; it does not generate text).',
        },
      ];
    return quoted;
  }

  /** Questions about the definitions and key phrases of the snippets and answer that the query did not already ask about. */
  async hints(query: string, answer: string, snippets: Snippet[]): Promise<QGPTQuestionAnswerWire[]> {
    const asked = new Set(contentTerms(query));
    const out: string[] = [];
    const seen = new Set<string>();
    const add = (subject: string, question: string) => {
      const terms = contentTerms(subject);
      const key = terms.join(' ');
      if (!key || seen.has(key) || terms.every((t) => asked.has(t))) return;
      seen.add(key);
      out.push(question);
    };
    const all = [answer, ...snippets.map((s) => s.text)].filter(Boolean).join('\n\n');
    for (const def of outlineCode(all).definitions.slice(0, 6)) {
      add(
        def.name,
        def.kind === 'class' || def.kind === 'interface' || def.kind === 'type'
          ? `What is \`${def.name}\` used for?`
          : `What does \`${def.name}\` do?`,
      );
    }
    for (const phrase of await this.extractive.keyPhrases(all, 6)) add(phrase, howDoesItWork(phrase));
    for (const def of outlineCode(all).definitions.slice(0, 3)) add(`use ${def.name}`, `How do I use \`${def.name}\`?`);
    return out.slice(0, 5).map((text, i) => ({ score: Math.round((1 - i * 0.15) * 100) / 100, text }));
  }
}

/** The best passages, each quoted as written (code fenced with its language) under its source and score. */
function quote(query: string, snippets: Snippet[]): QGPTQuestionAnswerWire[] {
  const passages = snippets.flatMap((s, i) => passagesOf(s.text, i));
  const best = bestPassages(
    rankPassages(
      query,
      passages,
      snippets.map((s) => Math.min(1, Math.max(0, s.score))),
    ),
    ANSWERS,
  );
  return best.map((p) => ({ score: p.score, text: quoted(p.text, snippets[p.doc], p.score) }));
}

/** Prose stays prose (quoted); anything else is shown verbatim in a fence, with its language. */
const PROSE = new Set(['md', 'markdown', 'txt', 'text', 'rst', 'adoc']);

function quoted(text: string, source: Snippet, score: number): string {
  const origin = source.title
    ? `**${source.title.replace(/\s+/g, ' ').trim()}**`
    : source.path
      ? `\`${source.path}\``
      : source.assetId
        ? 'a saved snippet'
        : 'your snippet';
  const header = `From ${origin} (score ${score}):`;
  const body = source.title ? stripTitle(text, source.title) : text;
  const prose = source.specific
    ? PROSE.has(source.specific.toLowerCase()) || source.generic === 'TEXT'
    : !/[{};]\s*$|^\s{2,}\S/m.test(body);
  if (prose)
    return `${header}\n\n${body
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n')}`;
  const fence = body.includes('```') ? '~~~~' : '```';
  return `${header}\n\n${fence}${source.specific && source.specific !== 'UNKNOWN' ? source.specific : ''}\n${body}\n${fence}`;
}

/** The asset's name heads its document for retrieval; a quote does not repeat it. */
function stripTitle(text: string, title: string): string {
  return text.startsWith(title) ? text.slice(title.length).replace(/^\s*\n/, '') || text : text;
}

/**
 * "How does the connection pool work?", "How do retries work?", "How does Redis work?": the
 * question agrees with the phrase's head noun (its last word), and a common noun gets its article.
 */
export function howDoesItWork(phrase: string): string {
  const words = phrase.trim().split(/\s+/);
  const head = words[words.length - 1];
  const plural = /[^su]s$/i.test(head) && head.length > 3;
  const proper = words.every((w) => /^[A-Z0-9]/.test(w));
  if (plural) return `How do ${phrase} work?`;
  return `How does ${proper ? '' : 'the '}${phrase} work?`;
}
