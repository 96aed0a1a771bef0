/**
 * What a piece of source code defines and uses, read with keyword patterns that hold
 * across the common languages (Python, JS/TS, Go, Rust, Java/C#/Kotlin, C/C++, Ruby, PHP,
 * Swift, Lua, shell, SQL). It is an outline for a description, not a parser: a definition
 * must start a line (after modifiers), so prose and call sites are not mistaken for one.
 */
interface Definition {
  kind: string;
  name: string;
}
export interface CodeOutline {
  definitions: Definition[];
  imports: string[];
  /** Text of comments and docstrings, in order, one entry per comment block. */
  comments: string[];
  /**
   * The comment that says what the snippet is: its header comment (before any code) or its first
   * definition's doc comment (right above it, or opening its body: a docstring). Never a
   * comment inside a body, a tool's directive (`pylint: disable=...`) or a licence notice.
   */
  leadComment?: string;
  lines: number;
}

const MODIFIERS = String.raw`(?:(?:export|default|public|private|protected|internal|static|final|abstract|async|override|open|sealed|data|inline|pub(?:\([^)]*\))?|unsafe|extern|const|virtual|partial|readonly|declare)\s+)*`;

const DEFINITIONS: { kind: string; pattern: RegExp }[] = [
  { kind: 'class', pattern: new RegExp(String.raw`^\s*${MODIFIERS}(?:class|record)\s+([A-Za-z_$][\w$]*)`, 'gm') },
  {
    kind: 'interface',
    pattern: new RegExp(String.raw`^\s*${MODIFIERS}(?:interface|protocol)\s+([A-Za-z_$][\w$]*)`, 'gm'),
  },
  { kind: 'trait', pattern: new RegExp(String.raw`^\s*${MODIFIERS}trait\s+([A-Za-z_][\w]*)`, 'gm') },
  { kind: 'struct', pattern: new RegExp(String.raw`^\s*${MODIFIERS}struct\s+([A-Za-z_][\w]*)`, 'gm') },
  { kind: 'struct', pattern: /^\s*type\s+([A-Za-z_]\w*)\s+struct\b/gm },
  { kind: 'interface', pattern: /^\s*type\s+([A-Za-z_]\w*)\s+interface\b/gm },
  { kind: 'enum', pattern: new RegExp(String.raw`^\s*${MODIFIERS}enum\s+(?:class\s+)?([A-Za-z_$][\w$]*)`, 'gm') },
  { kind: 'type', pattern: new RegExp(String.raw`^\s*${MODIFIERS}type\s+([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*=`, 'gm') },
  { kind: 'module', pattern: /^\s*(?:module|namespace|mod)\s+([A-Za-z_][\w.:]*)/gm },
  // Java, C#, PHP: a method with an access modifier, `public int countWords(String text)`, `public function parse()`
  {
    kind: 'method',
    pattern:
      /^[ \t]*(?:(?:public|private|protected|internal)\s+)(?:(?:static|final|abstract|virtual|override|async|synchronized)\s+)*[\w<>[\],.?]+\s+([A-Za-z_]\w*)\s*\(/gm,
  },
  { kind: 'function', pattern: /^\s*(?:async\s+)?def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)/gm },
  { kind: 'function', pattern: new RegExp(String.raw`^\s*${MODIFIERS}function\s*\*?\s+([A-Za-z_$][\w$.:]*)`, 'gm') },
  {
    kind: 'function',
    pattern: new RegExp(
      String.raw`^\s*${MODIFIERS}(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::\s*[^=]+)?=>`,
      'gm',
    ),
  },
  // R: `add <- function(x, y)`; Haskell: a type signature at the margin, `sumAll :: [Int] -> Int`
  { kind: 'function', pattern: /^\s*([A-Za-z_.][\w.]*)\s*<-\s*function\s*\(/gm },
  { kind: 'function', pattern: /^([a-z_][\w']*)\s+::\s/gm },
  { kind: 'function', pattern: /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/gm },
  { kind: 'function', pattern: /^\s*sub\s+([A-Za-z_]\w*)/gm },
  { kind: 'function', pattern: new RegExp(String.raw`^\s*${MODIFIERS}fn\s+([A-Za-z_]\w*)`, 'gm') },
  {
    kind: 'function',
    pattern: new RegExp(String.raw`^\s*${MODIFIERS}fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)`, 'gm'),
  },
  { kind: 'function', pattern: /^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{/gm },
  // JavaScript: `Mime.prototype.getType = function (path) {`, `exports.parse = (text) =>`, `const f = function`
  {
    kind: 'function',
    pattern:
      /^\s*(?:(?:const|let|var)\s+|(?:[A-Za-z_$][\w$]*\.)+)([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>)/gm,
  },
  // a class or object method written shorthand, alone on its line: `async getUser(id) {`, `parse(text: string): Node {`
  {
    kind: 'method',
    pattern:
      /^[ \t]*(?:(?:public|private|protected|static|async|override|get|set)\s+)*\*?\s*(?!(?:if|for|while|switch|catch|with|using|lock|fixed|foreach|synchronized|when|elseif|elsif|unless|until|function|return)\b)([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\(([^()'"]*)\)\s*(?::\s*[^{};=]+)?\{\s*$/gm,
  },
  // `key: function (...) {` in an object literal
  { kind: 'method', pattern: /^\s*([A-Za-z_$][\w$]*)\s*:\s*(?:async\s+)?function\b/gm },
  // C, C++, Java, C#: `<modifiers> <type> name(<params>) {` on one line (not control flow).
  {
    kind: 'function',
    pattern:
      /^[ \t]*(?:(?:public|private|protected|static|final|virtual|inline|override|async|synchronized|extern|unsigned|signed|const)\s+)*[A-Za-z_][\w:<>,[\]*& ]*?[\s*&]+(?!if\b|for\b|while\b|switch\b|return\b|catch\b|else\b|new\b)([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?(?:throws\s+[\w., ]+)?\s*\{/gm,
  },
  {
    kind: 'table',
    pattern:
      /^\s*create\s+(?:or\s+replace\s+)?(?:temporary\s+|temp\s+)?table\s+(?:if\s+not\s+exists\s+)?["`[]?([\w.]+)/gim,
  },
  {
    kind: 'view',
    pattern: /^\s*create\s+(?:or\s+replace\s+)?(?:materialized\s+)?view\s+(?:if\s+not\s+exists\s+)?["`[]?([\w.]+)/gim,
  },
  { kind: 'function', pattern: /^\s*create\s+(?:or\s+replace\s+)?(?:function|procedure)\s+["`[]?([\w.]+)/gim },
  { kind: 'index', pattern: /^\s*create\s+(?:unique\s+)?index\s+(?:if\s+not\s+exists\s+)?["`[]?([\w.]+)/gim },
];

const IMPORTS: RegExp[] = [
  /^\s*from\s+([\w.]+)\s+import\b/gm,
  /^\s*import\s+([\w.]+)(?:\s+as\s+\w+)?\s*$/gm,
  /^\s*import\s+(?:type\s+)?[^'"\n;]*?\s+from\s+['"]([^'"]+)['"]/gm,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  /^\s*import\s+(?:static\s+)?([\w.]+\*?)\s*;/gm,
  /^\s*using\s+([\w.]+)\s*;/gm,
  /^\s*use\s+([\w:]+)/gm,
  /^\s*#\s*include\s*[<"]([^>"]+)[>"]/gm,
  /^\s*import\s+"([^"]+)"/gm,
  /^\s*"([\w./-]+)"\s*$/gm, // inside a Go import ( ... ) block; only used when such a block exists
];
const GO_IMPORT_BLOCK = /^\s*import\s*\(([\s\S]*?)\)/m;
/** Shebangs and C preprocessor lines start with # but are not comments. */
const PREPROCESSOR =
  /^\s*#(?:!|\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import|error|line)\b)/;
const CONTROL = new Set([
  'if',
  'for',
  'while',
  'switch',
  'return',
  'catch',
  'else',
  'new',
  'do',
  'case',
  'sizeof',
  'function',
]);

function matches(pattern: RegExp, text: string): { index: number; name: string }[] {
  const out: { index: number; name: string }[] = [];
  // (where the match's text starts: a `^\s*` pattern may begin on a blank line above)
  for (const match of text.matchAll(pattern))
    out.push({ index: match.index + match[0].length - match[0].trimStart().length, name: match[1] });
  return out;
}

/** A comment for tools or lawyers, not readers: lint and type-checker directives, editor modelines, licence notices. */
export const NOT_A_DESCRIPTION =
  /^(?:pylint|noqa|type|mypy|pyright|flake8|isort|fmt|eslint|jshint|jscs|istanbul|c8|prettier|tslint|global|exported|@ts-|nolint|NOLINT|NOSONAR|phpcs|phpstan|psalm|rubocop|frozen_string_literal|encoding|coding|vim?|-\*-|SPDX|Copyright|\(c\)|©)\b|^\S+:\s*(?:disable|enable|ignore)|\b(?:licen[cs]ed? under|all rights reserved|copyright \(c\))/i;

interface Located {
  start: number;
  end: number;
  text: string;
}

/** Comment text: `#`, `//`, `--` line comments, `/* *\/` blocks and Python docstrings, in order, where each is. */
function locatedComments(text: string): Located[] {
  const out: Located[] = [];
  const add = (start: number, end: number, body: string) => out.push({ start, end, text: body });
  for (const match of text.matchAll(/\/\*+([\s\S]*?)\*\//g))
    add(match.index, match.index + match[0].length, match[1].replace(/^\s*\*+ ?/gm, ''));
  for (const match of text.matchAll(/("""|''')([\s\S]*?)\1/g))
    add(match.index, match.index + match[0].length, match[2]);
  // Perl's POD, `=head2 name` ... `=cut`: its paragraphs, not its commands
  for (const match of text.matchAll(
    /^=(?:pod|head\d|item|over|begin|for|encoding)\b[\s\S]*?(?:^=cut\b.*$|(?![\s\S]))/gm,
  ))
    add(match.index, match.index + match[0].length, match[0].replace(/^=.*$/gm, ''));
  let block: string[] = [];
  let blockStart = 0;
  let offset = 0;
  const flush = () => {
    if (block.length) add(blockStart, offset - 1, block.join(' '));
    block = [];
  };
  for (const line of text.split('\n')) {
    // (`//`, `#`, `--`, with a doc comment's mark: Rust's `//!`, Haddock's `-- |`, roxygen's `#'`)
    const m = /^\s*(?:\/\/+!?|#'?|--(?:\s?[|^](?=\s))?)\s?(.*)$/.exec(line);
    // (a directive or a licence line ends a block: the comment under it is another one)
    if (m && NOT_A_DESCRIPTION.test(m[1].trim())) flush();
    else if (m && !PREPROCESSOR.test(line)) {
      if (!block.length) blockStart = offset;
      block.push(m[1]);
    } else flush();
    offset += line.length + 1;
  }
  flush();
  return out
    .map((c) => ({ ...c, text: c.text.replace(/\s+/g, ' ').trim() }))
    .filter((c) => /[A-Za-z]{3,}/.test(c.text))
    .sort((a, b) => a.start - b.start);
}

/**
 * What may stand before a snippet's header comment without being code: a shebang, a preprocessor
 * line, an import, a decorator, a comment that is not a description (a directive, a licence).
 */
const PREAMBLE =
  /^\s*(?:#|\/\/|--|<\?php\b|["']use strict["'];?|package\s|import\s|from\s+\S+\s+import\b|use\s|using\s|require|@[\w.]+)/;

function leadComment(text: string, comments: Located[], firstDefinition: number | undefined): string | undefined {
  const onlyPreamble = (from: number, to: number) =>
    text
      .slice(from, to)
      .split('\n')
      .every((line) => !line.trim() || PREAMBLE.test(line));
  const defLine = firstDefinition === undefined ? undefined : text.lastIndexOf('\n', firstDefinition - 1) + 1;
  let previousEnd = 0;
  for (const comment of comments) {
    if (NOT_A_DESCRIPTION.test(comment.text)) {
      previousEnd = comment.end;
      continue;
    }
    const header = onlyPreamble(previousEnd, comment.start);
    const above = defLine !== undefined && comment.end <= defLine && onlyPreamble(comment.end, defLine);
    if (header || above || (firstDefinition !== undefined && opensBody(text, firstDefinition, comment.start)))
      return comment.text;
    if (defLine === undefined || comment.start > defLine) return undefined;
    previousEnd = comment.end;
  }
  return undefined;
}

/**
 * A comment or docstring that opens a definition's body, right under its signature (which may
 * span lines: it ends at the first line ending in `{`, `:`, `do`, `then`, `begin` or `is`, else
 * at its first line): Python's docstring, Perl's and Ruby's leading comment.
 */
function opensBody(text: string, definition: number, comment: number): boolean {
  const between = text.slice(definition, comment);
  const signatureEnd =
    /(?:[{:]|\b(?:do|then|begin|is))[ \t]*(?:(?:#|\/\/)[^\n]*)?\n/.exec(between) ?? /\n/.exec(between);
  return !!signatureEnd && !between.slice(signatureEnd.index + signatureEnd[0].length).trim();
}

/** What the code defines (functions, classes, types, ...), in order of appearance, each name once, with where. */
function locatedDefinitions(text: string): (Definition & { index: number })[] {
  const found: { index: number; kind: string; name: string }[] = [];
  for (const { kind, pattern } of DEFINITIONS) {
    for (const m of matches(pattern, text)) if (!CONTROL.has(m.name)) found.push({ ...m, kind });
  }
  found.sort((a, b) => a.index - b.index);
  const seen = new Set<string>();
  return found.filter((d) => !seen.has(d.name) && seen.add(d.name));
}

/** What the code defines (functions, classes, types, ...), in order of appearance, each name once. */
export function definitionsOf(text: string): Definition[] {
  return locatedDefinitions(text).map(({ kind, name }) => ({ kind, name }));
}

export function outlineCode(text: string): CodeOutline {
  const located = locatedDefinitions(text);
  const definitions = located.map(({ kind, name }) => ({ kind, name }));

  const used: { index: number; name: string }[] = [];
  const goBlock = GO_IMPORT_BLOCK.exec(text);
  IMPORTS.forEach((pattern, i) => {
    const inGoBlock = i === IMPORTS.length - 1;
    if (inGoBlock && !goBlock) return;
    const offset = inGoBlock ? goBlock!.index : 0;
    for (const m of matches(pattern, inGoBlock ? goBlock![1] : text))
      used.push({ index: m.index + offset, name: m.name });
  });
  used.sort((a, b) => a.index - b.index);
  const imports = [...new Set(used.map((u) => u.name))];
  const comments = locatedComments(text);
  return {
    definitions,
    imports,
    comments: comments.map((c) => c.text),
    leadComment: leadComment(text, comments, located[0]?.index),
    lines: text.split('\n').filter((l) => l.trim()).length,
  };
}
