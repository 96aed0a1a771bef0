import { FENCE_LINE } from './code-text';

/**
 * Is a text plain English, or Markdown with real structure? What the detector weighs against
 * the models' answers for prose (rules.ts lists the other signals).
 */

const STOPWORDS = new Set(
  (
    'the a an of to and with that this these those it its we you i he she they was were be been being are is am ' +
    'have has had our your their on at by from will would can could should may might not but or as about into ' +
    'than then there here what which who when where how all any some more most very just also so if do does did ' +
    'my me us them his her for in up out no yes please thanks thank'
  ).split(' '),
);

/** Characters that are common in code and rare in running English text. */
const CODE_CHARS = /[{}[\]<>=;$#@\\|`~^*_+]/g;

/** An element's start or end tag: `<p>`, `</div>`, `<a href="x">`, `<br/>` (not `<user@host>` or `<https://...>`). */
export const MARKUP_TAG =
  /<\/[A-Za-z][\w:-]*\s*>|<[A-Za-z][\w:-]*(?:\s+[\w:-]+(?:=(?:"[^"\n]*"|'[^'\n]*'|[^\s"'<>]+))?)*\s*\/?>/;

/**
 * A batch / shell line that reads like words: `echo Usage: ...`, `rem See ...`, `goto fail`,
 * `:no_exe`, `set X=1&goto shift`, `IF /I "%1" EQU "x"`, `if not exist build`.
 */
const SCRIPT_LINE =
  /^[ \t]*(?:@?(?:echo|ECHO)(?:[ \t.]|$)|(?:rem|REM)(?:[ \t]|$)|(?:goto|GOTO)[ \t]+:?\w|:[A-Za-z_]\w*[ \t]*$|[^\n&]*&[ \t]*(?:goto|GOTO)[ \t]+:?\w|(?:if|IF)[ \t]+(?:\/[iI][ \t]+)?(?:(?:not|NOT)[ \t]+)?(?:"?%|(?:exist|EXIST|errorlevel|ERRORLEVEL|defined|DEFINED)\b))/m;

export interface ProseFeatures {
  words: number;
  /** code characters per character (parentheses count half). */
  codeCharRatio: number;
  /** share of words that are English function words. */
  stopwordRatio: number;
  /** share of the text (by characters) in lines that read like sentences. */
  sentenceRatio: number;
  /** share of non-empty lines that are indented. */
  indentRatio: number;
  isProse: boolean;
}

/** Reads like a sentence: starts like one, no code line ending, (almost) no code characters. */
function isSentenceLine(line: string): boolean {
  if (!/^["'(A-Za-z0-9]/.test(line) || /[;{}([=,\\]$/.test(line) || line.split(/\s+/).length < 3) return false;
  const code = (line.match(CODE_CHARS)?.length ?? 0) + 0.5 * (line.match(/[()]/g)?.length ?? 0);
  return code / line.length < 0.04;
}

export function proseFeatures(text: string): ProseFeatures {
  const len = Math.max(1, text.length);
  const code = (text.match(CODE_CHARS)?.length ?? 0) + 0.5 * (text.match(/[()]/g)?.length ?? 0);
  const words = text.match(/[A-Za-z][A-Za-z']*/g) ?? [];
  const stop = words.reduce((n, w) => n + (STOPWORDS.has(w.toLowerCase()) ? 1 : 0), 0);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let sentenceChars = 0;
  let totalChars = 0;
  let indented = 0;
  for (const line of lines) {
    const t = line.trim();
    totalChars += t.length;
    if (/^\s/.test(line)) indented++;
    if (isSentenceLine(t)) sentenceChars += t.length;
  }
  const f = {
    words: words.length,
    codeCharRatio: code / len,
    stopwordRatio: words.length ? stop / words.length : 0,
    sentenceRatio: totalChars ? sentenceChars / totalChars : 0,
    indentRatio: lines.length ? indented / lines.length : 0,
  };
  // an element tag (`<p>`, `</div>`, `<a href="...">`) is markup, not a sentence,
  // nor is a script's `echo ...` / `rem ...` / `goto end` / `:label` line
  const isProse =
    !MARKUP_TAG.test(text) &&
    !SCRIPT_LINE.test(text) &&
    ((f.words >= 4 &&
      f.codeCharRatio < 0.025 &&
      f.stopwordRatio >= 0.2 &&
      f.sentenceRatio >= 0.6 &&
      f.indentRatio < 0.34) ||
      // a few plain words ("hello world", "see you at 5pm!"): no code characters at all
      (f.words >= 1 && f.words < 4 && code === 0 && /^[\w\s.,!?'":-]*$/.test(text.trim()) && !/[._]\w/.test(text)) ||
      // a note in telegraphic English, few stopwords ("Release checklist: bump version, tag and
      // push."): up to three unindented sentence lines ending like a sentence, no code characters
      (f.words >= 4 &&
        code === 0 &&
        f.sentenceRatio === 1 &&
        f.indentRatio === 0 &&
        lines.length <= 3 &&
        /[.!?]$/.test(text.trim())));
  return { ...f, isProse };
}

/**
 * Weighted count of Markdown constructs (1 or more: not plain prose). Fences, tables, links, link
 * reference definitions, headings, bold text and two code spans count fully; lists, quotes and one
 * code span are weak (`- item` in YAML, `> ` in mail). A `# heading` may be a Python or shell
 * comment, but this score only separates Markdown from plain text, and prose under a `#` line is
 * Markdown more often than not (npm READMEs against Debian's plain-text docs, ml/language/README.md).
 * Setext `---` underlines and bullet lists alone stay weak: AsciiDoc and plain-text notes use them.
 */
export function markdownScore(text: string): number {
  let score = 0;
  if (FENCE_LINE.test(text)) score += 2;
  if (/^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|/m.test(text) && /^[ \t]*\|.*\|[ \t]*$/m.test(text)) score += 2;
  if (
    /!?\[[^\]\n]{1,200}\]\((?:https?:\/\/|mailto:|#|\.{0,2}\/|[\w-]+(?:\/[\w.-]+)*\.(?:md|html?|png|jpe?g|gif|svg)\b)[^)\s]*\)/.test(
      text,
    )
  )
    score += 1.5;
  if (/^#{1,6} +\S/m.test(text)) score += 1;
  if (/^={3,}\s*$/m.test(text)) score += 1;
  // a link reference definition (`[npm-url]: https://...`, `[1]: ./docs/x.md`)
  if (/^ {0,3}\[[^\]\n]{1,100}\]:[ \t]*(?:<[^>\n]+>|(?:https?:\/\/|mailto:|#|\.{0,2}\/)\S*)[ \t]*$/m.test(text))
    score += 1.5;
  if (/(?:^|\s)(?:\*\*|__)[^*_\n]+(?:\*\*|__)(?=[\s.,;:!?)]|$)/m.test(text)) score += 1;
  if (/^[ \t]*[-*+] \[[ xX]\] /m.test(text)) score += 1;
  const listLines = text.match(/^[ \t]{0,3}(?:[-*+]|\d{1,3}[.)]) +\S/gm)?.length ?? 0;
  if (listLines >= 2) score += 0.5;
  if (/^> ?\S/m.test(text)) score += 0.5;
  // `code` spans: two in prose are Markdown's habit (plain-text docs quote `like this' or "so")
  const codeSpans = text.match(/(?:^|[\s(])`[^`\n]+`(?=[\s.,;:!?)]|$)/gm)?.length ?? 0;
  if (codeSpans) score += codeSpans >= 2 ? 1 : 0.5;
  return score;
}
