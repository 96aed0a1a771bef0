import { Injectable } from '@nestjs/common';
import { SHELL_PROMPT } from './language/rules';
import { NOT_A_DESCRIPTION, definitionsOf, outlineCode } from './text/code-outline';
import { TEXT_LANGUAGE, knownLanguageName } from './text/language-names';
import { identifierWords, whatItDoes } from './text/what-it-does';

/**
 * Key terms, names and language labels of a snippet, by plain counting (no model):
 *  - identifiers are split on camelCase, snake_case, kebab-case and digits, lower-cased;
 *  - English stop-words and the keywords / common builtins of the languages we detect are dropped;
 *  - terms rank by frequency, names the snippet defines (functions, classes, ...) count double,
 *    ties go to the term seen first. Same input, same output.
 */

const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can could did do does doing down during each either else etc few for from further had has have having he her here hers
  him his how however i if in into is it its itself just let like may me might more most much must my no nor not now of
  off often on once only or other our ours out over own per same shall she should since so some such than that the their
  theirs them then there these they this those though through thus to too under until up upon us very via was we were
  what when where whether which while who whom whose why will with within without would yet you your yours use used using
  one two three first second new old get set make made see way need want thing things something`.split(/\s+/),
);

/** Keywords, literals and ubiquitous builtins of the detected languages: they say nothing about a snippet. */
const KEYWORDS = new Set(
  `abstract and as assert async await auto begin bool boolean break byte case catch char chan class const constexpr continue
  def default defer del delete do double dyn elif else elsif end enum eval except exec explicit export extends extern
  false final finally float fn for foreach friend from func function global go goto if impl implements import in include
  inline instanceof int interface internal is lambda let local long loop match mod module mut namespace native new nil
  none nonlocal not null nullptr object of operator or override package pass print printf println private protected pub
  public raise readonly record ref register require rescue retry return self select short signed sizeof static str
  string struct super switch sync synchronized template then this throw throws trait true try type typedef typename
  typeof uint union unless unsigned until use using val var virtual void volatile when where while with yield
  undefined console log std cout cin endl fmt sys os args argv argc kwargs len range int32 int64 uint8 usize isize f32
  f64 i32 i64 u8 u32 u64 vec err ok some echo fi esac done elseif endif endfor endwhile html div span body head script
  style px em rem select insert into values update delete create table where from join on group order by limit
  having not null primary key references index alter drop sub undef unset isset exists my our wantarray bless shift unshift
  defined scalar ref elif`.split(/\s+/),
);

/**
 * A label of a classification code (`py` -> `Python`, `hljs-elixir` -> `elixir`), or undefined
 * for a code without one: names, tags, descriptions and exports show a language only when it has
 * a label. The names come from the one table (text/language-names.ts).
 */
export function languageLabel(code: string | undefined): string | undefined {
  if (!code) return undefined;
  const known = knownLanguageName(code);
  if (known) return known;
  if (code.startsWith('hljs-')) return code.slice(5);
  return undefined;
}

/** `parseHTTPResponse_v2` -> `parse`, `http`, `response`, `v2` (lower-case parts). */
const splitIdentifier = identifierWords;

/** Names of local variables and parameters in any codebase: they say nothing about what a snippet is about. */
const VARIABLE_NAMES = new Set(
  `acc arg args arr buf cb cfg ctx cur curr dst elem err evt idx lhs lst msg num obj opts out param params prev ptr req res resp
  result results ret rhs src str temp tmp val vals var vars`.split(/\s+/),
);

function meaningful(term: string): boolean {
  return (
    term.length >= 3 &&
    term.length <= 40 &&
    /[a-z]/.test(term) &&
    !/^\d/.test(term) &&
    !STOP_WORDS.has(term) &&
    !KEYWORDS.has(term) &&
    !VARIABLE_NAMES.has(term)
  );
}

/**
 * The names one entry of a parameter list binds, not its type: `$name` (PHP, Perl), the name
 * before an annotation (`path: str = None`, `opts?: Options`), else of `name Type` (Go) and
 * `Type name` (Java, C) the word starting in lower case, or both when that does not tell.
 */
function parameterNames(entry: string): string[] {
  const sigils = [...entry.matchAll(/[$@%]([A-Za-z_]\w*)/g)].map((m) => m[1]);
  if (sigils.length) return sigils;
  const bare = entry.replace(/=[\s\S]*$/, '');
  const annotated = /^[\s*&.]*([A-Za-z_$][\w$]*)\??\s*:/.exec(bare);
  if (annotated) return [annotated[1]];
  const words = [...bare.matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]);
  if (words.length <= 1) return words;
  const first = words[0];
  const last = words[words.length - 1];
  const lower = [first, last].filter((w) => /^[a-z_$]/.test(w));
  return lower.length === 1 ? lower : [first, last];
}

/** A Java / C# / Kotlin-style method with modifiers (`public int count(String s)`): its parameter list. */
const METHOD_PARAMETERS =
  /^[ \t]*(?:(?:public|private|protected|internal|static|final|abstract|virtual|override|async|synchronized)\s+)+[\w<>[\],.?]+\s+[A-Za-z_]\w*\s*\(([^)]*)\)/gm;

/**
 * Names the snippet binds itself: parameters of its definitions (functions, Go methods and
 * their receivers, arrow functions, methods with modifiers) and assigned variables.
 */
function localNames(text: string): Set<string> {
  const names = new Set<string>();
  const lists = [
    ...[
      ...text.matchAll(/\b(?:def|function|fn|func|fun|sub)\s*\*?\s*(?:\(([^)]*)\)\s*)?[A-Za-z_$][\w$]*\s*\(([^)]*)\)/g),
    ].flatMap((m) => [m[1] ?? '', m[2]]),
    ...[...text.matchAll(/(?:^|[=(,:]\s*)(?:async\s*)?\(([^()]*)\)\s*(?::\s*[^=\n{]+)?=>/gm)].map((m) => m[1]),
    ...[...text.matchAll(METHOD_PARAMETERS)].map((m) => m[1]),
  ];
  for (const list of lists)
    for (const entry of list.split(',')) for (const name of parameterNames(entry)) names.add(name);
  for (const m of text.matchAll(
    /(?:^|[\s(,;])(?:my\s+|local\s+|var\s+|let\s+|const\s+|auto\s+)?[$@]?([A-Za-z_]\w*)\s*(?::=|=(?![=>~]))/gm,
  ))
    names.add(m[1]);
  // `header, _, body = ...`, `my ($a, $b) = ...`
  for (const m of text.matchAll(
    /^[ \t]*(?:my\s*\(|local\s+|var\s+|let\s+|const\s+)?([$@]?[A-Za-z_]\w*(?:\s*,\s*[$@]?[A-Za-z_]\w*)+)\)?\s*(?::=|=(?![=>~]))/gm,
  )) {
    for (const name of m[1].split(',')) names.add(name.trim().replace(/^[$@]/, ''));
  }
  return names;
}

/** Key terms, best first; with `minWeight`, only terms that weigh at least that much (a word once in the code weighs 1). */
function keyTerms(text: string, limit = 8, minWeight = 0): string[] {
  const counts = new Map<string, { count: number; first: number }>();
  let position = 0;
  const add = (term: string, weight: number) => {
    if (!meaningful(term)) return;
    const entry = counts.get(term);
    if (entry) entry.count += weight;
    else counts.set(term, { count: weight, first: position++ });
  };
  // an interpreter path says nothing about the snippet, nor does a comment for tools or lawyers,
  // nor a doc comment's markup (C#'s `/// <summary>`, `<paramref name="x"/>`; POD's `=head2`)
  const body = text
    .replace(/^#!.*$/m, '')
    .split('\n')
    .filter((line) => !isToolComment(line))
    .map((line) =>
      /^\s*\/\/\//.test(line)
        ? line.replace(/<\/?[A-Za-z]+(?:\s[^<>]*)?\/?>/g, ' ')
        : line.replace(/^=[a-z]+\d?\b/, ''),
    )
    .join('\n');
  const locals = localNames(body);
  // a command's long options (`--save-dev`) are how it runs, not what it is about
  const options = new Set([...body.matchAll(/(?:^|[\s"'`([,=])--([A-Za-z][\w-]*)/g)].flatMap((m) => m[1].split('-')));
  // What the snippet defines counts most, then its comments' words; its own local variables and
  // parameters (`result`, `opts`, `i`) least: they are how it works, not what it is about.
  for (const { name } of definitionsOf(text)) for (const part of splitIdentifier(name)) add(part, 3);
  for (const match of body.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const weight = locals.has(match[0]) || options.has(match[0]) ? 0.25 : 1;
    for (const part of splitIdentifier(match[0])) add(part, weight);
  }
  return [...counts.entries()]
    .filter(([, entry]) => entry.count >= minWeight)
    .sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first)
    .slice(0, limit)
    .map(([term]) => term);
}

const MAX_NAME = 80;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_NAME) return flat;
  const cut = flat.lastIndexOf(' ', MAX_NAME - 1);
  return `${flat.slice(0, cut > MAX_NAME / 2 ? cut : MAX_NAME - 1)}…`;
}

/** What opens a line without saying anything: a comment's marker (`//`, `//!`, `#`, `#'`, `-- |`, `<#`, `@rem`, ...) or a shell's prompt. */
const LEADING_MARKER = new RegExp(
  String.raw`^\s*(?:\/\/+!?|#+'?|--+(?:\s?[|^](?=\s))?|;+|%+|\/\*+|\*+\/?|<!--|<#|"""|'''|\{-|@?(?:rem|REM|Rem)\b|::|${SHELL_PROMPT}(?=\s))\s*`,
);

/** A comment line for tools or lawyers: `# pylint: disable=...`, `// eslint-disable-next-line`, `# Copyright (c) ...`. */
function isToolComment(line: string): boolean {
  const text = line.replace(LEADING_MARKER, '').trim();
  return text !== line.trim() && NOT_A_DESCRIPTION.test(text);
}

/** A doc comment's tag line (`@type {Map<K, V>}`, `@param x`, `@flow`). */
const DOC_TAG_LINE =
  /^@(?:type|typedef|param|arg|returns?|template|property|prop|see|since|deprecated|throws|example|private|public|internal|license|author|flow|format|ts-\w+)\b/;

/**
 * The first line that says something: comment text (without its `//`, `#`, `<#`, `@rem`, ...
 * markers), or a line of prose/code that is not just punctuation (without a shell's `$ ` prompt).
 */
function firstMeaningfulLine(text: string): string | undefined {
  for (const raw of text.split('\n')) {
    if (/^#!/.test(raw)) continue;
    const line = raw
      .replace(LEADING_MARKER, '')
      .replace(/\s*(?:\*\/|-->|#>|"""|'''|-\})\s*$/, '')
      .trim();
    // (nor a heading of PowerShell's help, `.SYNOPSIS`: its text is on the next line, nor a doc
    // comment's tag, `@type {Map<K, V>}`: the code it annotates says more, nor a comment for tools
    // or lawyers, `eslint-disable`, `Copyright (c) ...`)
    if (/^\.[A-Z]+(?:[ \t]+\w+)?$/.test(line)) continue;
    if (DOC_TAG_LINE.test(line)) continue;
    if (isToolComment(raw)) continue;
    if (
      line.length >= 3 &&
      /[A-Za-z]{2}/.test(line) &&
      !/^<\?|^@echo off$|^use strict;?$|^['"]use strict['"];?$/i.test(line)
    )
      return line;
  }
  return undefined;
}

/**
 * A name for an unnamed snippet: what it defines and what that does or is: the lead sentence of
 * its doc comment when short ("fib: return the n-th Fibonacci number (Python function)",
 * "RateLimiter: limits requests per client (TypeScript class)"), else, for a function, what its
 * name says ("add_numbers: adds numbers (Python function)"); else its first meaningful line, else
 * its key terms.
 */
function suggestName(text: string, language?: string): string | undefined {
  const label = languageLabel(language);
  const outline = outlineCode(text.slice(0, 20_000));
  const definition = outline.definitions[0];
  if (definition) {
    const kind = `${label ? `${label} ` : ''}${definition.kind}`;
    const named = (doing: string | undefined) => {
      const full = doing && `${definition.name}: ${doing} (${kind})`;
      return full && full.length <= MAX_NAME ? full : undefined;
    };
    const isFunction = definition.kind === 'function' || definition.kind === 'method';
    const lead = leadSentence(outline.leadComment, definition.name);
    const documented =
      lead && !lead.endsWith('…')
        ? named(/^[A-Z][a-z]/.test(lead) ? lead.charAt(0).toLowerCase() + lead.slice(1) : lead)
        : undefined;
    return clip(
      documented ?? (isFunction ? named(whatItDoes(definition.name)) : undefined) ?? `${definition.name} (${kind})`,
    );
  }
  const line = firstMeaningfulLine(text);
  if (line) return clip(line);
  const terms = keyTerms(text, 3);
  return terms.length ? clip(terms.join(' ')) : undefined;
}

/**
 * A tag is a word the snippet is about: one it defines or uses at least once outside its own
 * parameters and locals, or a local it leans on (four mentions weigh as much as one other word).
 */
const TAG_MIN_WEIGHT = 1;

/** Tags for a snippet: its language (lower-case name) then key terms. */
function suggestTags(text: string, language: string | undefined, limit = 5): string[] {
  const tags: string[] = [];
  const label = languageLabel(language);
  if (label && label !== TEXT_LANGUAGE) tags.push(label.toLowerCase());
  for (const term of keyTerms(text, limit, TAG_MIN_WEIGHT))
    if (tags.length < limit && !tags.includes(term)) tags.push(term);
  return tags;
}

const MAX_DESCRIPTION = 200;

/**
 * Where a doc comment's summary ends: its tags and sections (JSDoc / Javadoc `@param`, C#'s
 * `<param>`, Google's `Args:`, NumPy's `Parameters ----`, reST's `:param x:`, a doctest, a Markdown
 * `# Examples` heading or fence).
 */
const DOC_SECTION =
  /(?:^|\s)(?:@[A-Za-z]+\b|<(?:param|typeparam|returns|remarks|example|exception|value|seealso)\b|(?:Args|Arguments|Parameters|Returns|Raises|Yields|Examples?|Notes?|Attributes)\s*:|(?:Parameters|Returns|Raises|Yields|Examples|Notes|Attributes|See Also)\s+-{3,}|:(?:param|type|returns?|rtype|raises)\b|>>>|```|#{1,3} )/;

/**
 * The first sentence of a comment or docstring, if it reads like one: before its tags and sections
 * (`@param x`, `Args:`, `# Examples`), without its XML markup (C#'s `<summary>`), without the name
 * it documents when it opens with it (Go's `// NewRouter returns a new router.` -> "Returns a new
 * router").
 */
function leadSentence(comment: string | undefined, name?: string): string | undefined {
  let flat = comment
    ?.replace(/\s+/g, ' ')
    .split(DOC_SECTION)[0]
    .replace(/<(?:see|paramref|typeparamref)\s+\w+="([^"]+)"\s*\/>/g, '$1')
    .replace(/<\/?[A-Za-z]+(?:\s[^<>]*)?\/?>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat && name && flat.startsWith(`${name} `) && /^[a-z]/.test(flat.slice(name.length + 1)))
    flat = flat.charAt(name.length + 1).toUpperCase() + flat.slice(name.length + 2);
  if (!flat || !/[A-Za-z]{3}/.test(flat)) return undefined;
  // A sentence ends at . ! ? before a capital (or the end): "Return n! computed iteratively." is one sentence.
  const sentence = /^(.{8,}?[.!?])(?=\s+[A-Z0-9`"'(]|\s*$)/.exec(flat)?.[1] ?? flat;
  return sentence.length <= 120 ? sentence.replace(/[.!?]$/, '') : `${sentence.slice(0, 119).trimEnd()}…`;
}

/** Prose shorter than this says all there is to say about itself: a description would repeat it. */
const MIN_DESCRIBED_WORDS = 4;

/**
 * One line saying what a snippet is, from the snippet itself: its language and what it defines,
 * with the lead sentence of its own first comment or docstring ("Python function `fib`: Return
 * the n-th Fibonacci number."); for prose, its length and key terms; nothing for a few words of
 * prose. Never the content repeated.
 */
function describeSnippet(text: string, generic: string, specific: string | undefined): string | undefined {
  const label = languageLabel(specific);
  const lines = text.split('\n').filter((l) => l.trim()).length;
  if (generic !== 'CODE') {
    const words = text.split(/\s+/).filter(Boolean).length;
    if (words < MIN_DESCRIBED_WORDS) return undefined;
    const about = keyTerms(text, 3);
    const kind = label && label !== TEXT_LANGUAGE ? `${label} note` : 'Note';
    return clipTo(
      `${kind} of ${words} ${words === 1 ? 'word' : 'words'}${about.length ? ` about ${about.join(', ')}` : ''}.`,
      MAX_DESCRIPTION,
    );
  }
  const outline = outlineCode(text.slice(0, 100_000));
  const first = outline.definitions[0];
  const doing = first && /function|method/.test(first.kind) ? whatItDoes(first.name) : undefined;
  const lead =
    leadSentence(outline.leadComment, first?.name) ?? (doing && `${doing.charAt(0).toUpperCase()}${doing.slice(1)}`);
  const language = label && label !== TEXT_LANGUAGE ? `${label} ` : '';
  const defs = outline.definitions;
  let what: string;
  if (defs.length) {
    const shown = defs.slice(0, 2).map((d) => `${d.kind} \`${d.name}\``);
    const more = defs.length - shown.length;
    what = `${language}${more > 0 ? `${shown.join(', ')} and ${more} more ${more === 1 ? 'definition' : 'definitions'}` : shown.join(' and ')}`;
  } else {
    const uses = outline.imports.slice(0, 2).map((i) => `\`${i}\``);
    what = `${lines}-line ${language}snippet${uses.length ? ` using ${uses.join(' and ')}` : ''}`;
  }
  return clipTo(`${what.charAt(0).toUpperCase()}${what.slice(1)}${lead ? `: ${lead}` : ''}.`, MAX_DESCRIPTION);
}

function clipTo(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The functions above as an injectable, for handlers. */
@Injectable()
export class CodeTerms {
  keyTerms = keyTerms;
  suggestName = suggestName;
  suggestTags = suggestTags;
  describeSnippet = describeSnippet;
  languageLabel = languageLabel;
}
