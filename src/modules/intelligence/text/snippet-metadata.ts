import { ChatMessage } from '../providers/model-provider';

/** Characters of a snippet the prompt quotes, at most (the start of a longer one). */
export const PROMPT_CHARS = 4_000;
/** Bounds of what a model's answer may set. */
const NAME_CHARS = 100;
const DESCRIPTION_CHARS = 300;
const TAG_CHARS = 32;
const TAGS = 5;

/** What a model proposes for a snippet: each part only when it passed the checks. */
export interface SnippetMetadata {
  name?: string;
  description?: string;
  tags: string[];
}

/** The parts a prompt asks for. */
export interface AskedParts {
  name: boolean;
  description: boolean;
  tags: boolean;
}

/**
 * The chat that asks a language model for a snippet's name, one-sentence description and tags
 * as strict JSON. `text` must already be free of secrets; it is cut to PROMPT_CHARS here.
 */
export function snippetMetadataPrompt(text: string, language: string | undefined, parts: AskedParts): ChatMessage[] {
  const quoted = text.length > PROMPT_CHARS ? `${text.slice(0, PROMPT_CHARS)}\n[... cut]` : text;
  const fields = [
    parts.name && '"name": a short title of what the snippet is or does (at most 8 words, no quotes)',
    parts.description && '"description": one sentence saying what it does',
    parts.tags && `"tags": up to ${TAGS} lowercase keywords (topics, libraries, tools), without the language`,
  ].filter(Boolean);
  return [
    {
      role: 'system',
      content:
        'You name and describe code snippets and notes for a snippet library. Answer with one JSON object only: no markdown, no commentary.',
    },
    {
      role: 'user',
      content:
        `Give this ${language ? `${language} ` : ''}snippet a JSON object with these fields:\n${fields.map((f) => `- ${f}`).join('\n')}\n` +
        `Answer exactly in the form {"name": "...", "description": "...", "tags": ["..."]}.\n\nSnippet:\n<<<\n${quoted}\n>>>`,
    },
  ];
}

/** One line of text without the quotes, backticks or markdown emphasis a model wraps it in. */
function clean(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'`*_]+|["'`*_]+$/g, '')
    .trim();
  if (!text || text.length > max) return undefined;
  return text;
}

/** The first sentence of `text` (models write a paragraph when asked for a sentence). */
function firstSentence(text: string): string {
  const end = /[.!?](\s|$)/.exec(text);
  const sentence = end ? text.slice(0, end.index + 1) : text;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The JSON object in a model's answer: the whole answer, or inside a markdown fence, or the outermost braces. */
function jsonObject(answer: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(answer);
  const candidates = [answer.trim(), fenced?.[1]?.trim()];
  const open = answer.indexOf('{');
  const close = answer.lastIndexOf('}');
  if (open >= 0 && close > open) candidates.push(answer.slice(open, close + 1));
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const value: unknown = JSON.parse(candidate);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * What a model's answer proposes, checked: a name of one line up to 100 characters, a
 * description cut to its first sentence (up to 300 characters), tags lowercased, of one to 32
 * characters, without duplicates, at most 5. Null when the answer holds no JSON object or no
 * part passes.
 */
export function parseSnippetMetadata(answer: string): SnippetMetadata | null {
  const object = jsonObject(answer);
  if (!object) return null;
  const name = clean(object.name, NAME_CHARS);
  const sentence = clean(object.description, DESCRIPTION_CHARS * 4);
  const description = sentence ? clean(firstSentence(sentence), DESCRIPTION_CHARS) : undefined;
  const raw = Array.isArray(object.tags) ? object.tags : typeof object.tags === 'string' ? object.tags.split(',') : [];
  const tags = [
    ...new Set(
      raw
        .map((t) => clean(t, TAG_CHARS)?.toLowerCase().replace(/^#/, ''))
        .filter((t): t is string => Boolean(t) && /^[\p{L}\p{N}][\p{L}\p{N} ._+#-]*$/u.test(t!)),
    ),
  ].slice(0, TAGS);
  if (!name && !description && tags.length === 0) return null;
  return { ...(name ? { name } : {}), ...(description ? { description } : {}), tags };
}
