import { matchConfigFormat } from './config-rules';
import { LanguageCode } from './languages';

/**
 * Hand-written signals. Three kinds:
 *  - `matchRules`: unambiguous evidence that settles the answer before any model runs
 *    (shebang, `<?php`, an HTML doctype, a parseable JSON document, ...);
 *  - `proseFeatures` / `markdownScore`: is this plain English, or Markdown with real structure?
 *  - `refineDialect`: pick between a language and its near-superset (C / C++, JS / TS,
 *    CSS / SCSS, HTML / XML, INI / TOML) from syntax only one of them has. Both models confuse
 *    these pairs, and the syntax decides them far more reliably than either model.
 */

export interface RuleMatch {
  code: LanguageCode;
  rule: string;
}

/** Shebang interpreter (basename, version suffix allowed) -> language. */
const INTERPRETERS: ReadonlyArray<[RegExp, LanguageCode]> = [
  [/^(?:python[\d.]*|pypy[\d.]*)$/, 'py'],
  [/^(?:node|nodejs)$/, 'js'],
  [/^(?:ts-node|tsx)$/, 'ts'],
  [/^(?:bash|sh|zsh|ksh|dash|ash|mksh)$/, 'sh'],
  [/^(?:ruby[\d.]*|jruby)$/, 'rb'],
  [/^perl[\d.]*$/, 'pl'],
  [/^php[\d.]*$/, 'php'],
  [/^(?:pwsh|powershell)$/, 'ps1'],
  [/^Rscript$/, 'r'],
  [/^(?:lua[\d.]*|luajit)$/, 'lua'],
  [/^escript$/, 'erl'],
  [/^(?:elixir|iex)$/, 'ex'],
  [/^(?:runhaskell|runghc)$/, 'hs'],
  [/^scala$/, 'scala'],
  [/^swift$/, 'swift'],
];

/** `#!/usr/bin/env -S python3 -u`, `#!/bin/bash -e`, ... -> interpreter basename. Not `#![allow(..)]` (Rust). */
function shebangInterpreter(text: string): string | null {
  const m = /^#![ \t]*(\/[^\s]*|[A-Za-z][\w.-]*)(.*)$/m.exec(text.slice(0, 300));
  if (!m || m.index !== 0) return null;
  const base = m[1].slice(m[1].lastIndexOf('/') + 1);
  if (base !== 'env') return base;
  for (const arg of m[2].trim().split(/\s+/)) {
    if (!arg || arg.startsWith('-') || arg.includes('=')) continue;
    return arg.slice(arg.lastIndexOf('/') + 1);
  }
  return null;
}

/** A Markdown code fence's line, opening or closing (```` ``` ````, ```` ~~~ ````, ```` ```toml ````, up to 3 spaces in). */
const FENCE_LINE = /^ {0,3}(?:```|~~~)/m;
/** A Markdown code fence at the start of a line (```` ``` ```` or ```` ```toml ````). */
const MARKDOWN_FENCE = /^```[\w+#.-]*[ \t]*$/m;
/** A line of at least four words at the start of a line, capitalised, without code punctuation. */
const README_SENTENCE = /^[A-Z][A-Za-z'’,]*(?: [^\s;{}=]+){3,}[ \t]*$/m;

/** A keyword of PowerShell's comment-based help on a line of its own (`.SYNOPSIS`, `.PARAMETER Name`). */
const POWERSHELL_HELP = /^[ \t]*\.(?:SYNOPSIS|DESCRIPTION|PARAMETER[ \t]+[A-Za-z_]\w*|EXAMPLE|NOTES|INPUTS|OUTPUTS)[ \t]*$/m;

/** Commands developers type and paste into READMEs (not `export`, `go` or `find`: see below); also `./configure`-style paths. */
const SHELL_COMMANDS =
  'npm npx yarn pnpm pnpx bun bunx deno node nvm git gh cd ls mkdir rm cp mv cat echo curl wget apt apt-get brew pip ' +
  'pip3 pipx python python3 poetry conda uv docker docker-compose podman kubectl helm terraform make cmake cargo ' +
  'rustup chmod chown ssh scp rsync tar unzip gem bundle composer mvn gradle dotnet systemctl source touch grep tail ' +
  'ln which openssl psql mysql redis-cli jq ' +
  // compilers, build and test tools, platform CLIs
  'gcc g++ clang javac rustc ninja meson bazel ctest gmake pytest tox black flake8 mypy ruff eslint prettier tsc jest ' +
  'vitest webpack vite flutter xcodebuild adb heroku vercel netlify firebase aws gcloud az minikube ansible ' +
  'ansible-playbook vagrant journalctl ssh-keygen gpg hugo jekyll rake rails iex rebar3 cabal ghc lein sbt Rscript ' +
  'cpanm luarocks virtualenv mkdocs sphinx-build twine dnf yum pacman apk snap';

/**
 * A command line as a README or a terminal shows it: an optional `$ ` prompt, `sudo`, `VAR=value`
 * assignments, then a command and its arguments (`npm install -D x`, `git clone ...`, `cd build`).
 * No command takes `(`, `=` or `:` right after it (`node.x`, `make(`, `cp = 1` are code); `go` needs
 * a subcommand (`go func() {` is Go) and `export` a variable (`export const` is JavaScript).
 */
const SHELL_COMMAND_LINE = new RegExp(
  String.raw`^[ \t]*(?:\$[ \t]+)?(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:[A-Za-z_]\w*=\S*[ \t]+)*` +
    String.raw`(?:(?:${SHELL_COMMANDS.split(' ')
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')}|\.{1,2}\/[\w./-]+)(?:[ \t]+[^\s(=:][^\n]*)?` +
    String.raw`|go[ \t]+(?:build|run|test|get|install|mod|vet|fmt|generate|env|version|work|list|clean|tool)\b[^\n]*` +
    String.raw`|export[ \t]+[A-Z_][A-Z0-9_]*(?:=[^\n]*)?)[ \t]*$`,
);

/** cmd.exe's habits: `%VAR%`, `exit /b 1`, `mkdir build\\win`. */
const WINDOWS_COMMAND = /%\w+%|(?:^|\s)\/[A-Za-z](?:\s|$)|\w\\\w/;

/**
 * Commands typed at a shell: every line a command line (above), a `#` comment or the
 * continuation of a line ending in `\\`; no line ends like a sentence (`cat the output.`) or a
 * statement (`echo $x;` is PHP), nor is written for cmd.exe.
 */
function isCommandList(text: string): boolean {
  let commands = 0;
  let continued = false;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      continued = false;
      continue;
    }
    const wasContinued = continued;
    continued = line.endsWith('\\');
    if (wasContinued || /^[ \t]*#/.test(line)) continue;
    if (!SHELL_COMMAND_LINE.test(line) || /[A-Za-z][.!?]$|;$/.test(line) || WINDOWS_COMMAND.test(line)) return false;
    commands++;
  }
  return commands > 0;
}

/** A shell's prompt, `$` or `[user@host dir]$` (the names of sessions leave it out too). */
export const SHELL_PROMPT = String.raw`(?:\[[\w.-]+@[^\]\n]+\])?\$`;

/**
 * A terminal session: the first line (after `#` comments) is a command at a prompt, `$ ` or
 * `[user@host dir]$ ` (`$ semver 1.2.4 -i minor`, `$ ./run_benchmarks --filter=x`), whatever it
 * printed follows. (TeX's display math `$ x + y $` closes its `$`.)
 */
const CONSOLE_SESSION = new RegExp(String.raw`^${SHELL_PROMPT}[ \t]+(?:sudo[ \t]+)?(?:[a-z]|\.{0,2}\/|~\/)[\w./+-]*(?:[ \t][^\n$]*)?$`);

/**
 * Commands typed at a shell (`npm install -D x`, `$ git clone ...`), a README's most common
 * snippet: a list of command lines, or a terminal session. A session's prompt is not indented (a
 * docstring's example is part of its code) and no fence follows (`$ npm install x` closing a
 * README's fence is Markdown). Shell or the shell of a Dockerfile's `RUN`: nothing else.
 */
export function isShellSession(text: string): boolean {
  if (isCommandList(text)) return true;
  const firstRow = /^(?:[ \t]*(?:#[^\n]*)?\n)*([^\n]*)/.exec(text)?.[1] ?? '';
  return CONSOLE_SESSION.test(firstRow) && !FENCE_LINE.test(text);
}

/** Leading whitespace and `<!-- comments -->` skipped. */
function markupStart(text: string): string {
  return text.replace(/^\s*(?:<!--[\s\S]*?-->\s*)*/, '');
}

function isJsonDocument(text: string): boolean {
  const t = text.trim();
  if (t.length < 2) return false;
  const first = t[0];
  const last = t[t.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']'))) return false;
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === 'object' && v !== null;
  } catch {
    return false;
  }
}

/** JSON Lines: at least two lines, every one a JSON object. */
function isJsonLines(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2 || lines.length > 2000) return false;
  return lines.every((l) => {
    const s = l.trim();
    return s.startsWith('{') && s.endsWith('}') && isJsonDocument(s);
  });
}

/**
 * Unambiguous signals. `full` is the untruncated input (used only for JSON.parse, which must see
 * the whole document), `text` the normalised, length-capped one.
 */
export function matchRules(text: string, full: string = text): RuleMatch | null {
  const interp = shebangInterpreter(text);
  if (interp) {
    for (const [re, code] of INTERPRETERS) if (re.test(interp)) return { code, rule: `shebang:${interp}` };
  }

  // (not in a block comment: a stylesheet's `/* ... tags, e.g. <?php ?> */` is no PHP)
  if (/<\?php\b/.test(text) && /<\?php\b/.test(withoutComments(text, false))) return { code: 'php', rule: '<?php' };

  const markup = markupStart(text);
  // (an XHTML document may start with an XML declaration)
  if (/^(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE\s+html\b|<html[\s>])/i.test(markup)) {
    return { code: 'html', rule: 'html-document' };
  }
  if (/^<\?xml\s/.test(markup)) return { code: 'xml', rule: '<?xml' };

  if (full.length <= 5_000_000 && (isJsonDocument(full) || isJsonLines(full.length <= 200_000 ? full : text))) {
    return { code: 'json', rule: 'json-parse' };
  }

  const firstLine = /^\s*(\S.*)/.exec(text)?.[1] ?? '';
  if (/^@echo\s+off\b/i.test(firstLine)) return { code: 'bat', rule: '@echo off' };
  // `@rem`: a batch comment that is not echoed (the `@` is cmd.exe's)
  if (/^[ \t]*@(?:rem|REM)(?:[ \t]|$)/m.test(text)) return { code: 'bat', rule: '@rem' };

  // A README: a fenced code block and a sentence, both at the start of their lines
  if (MARKDOWN_FENCE.test(text) && README_SENTENCE.test(text)) return { code: 'md', rule: 'markdown-fence' };

  // PowerShell's comment-based help (`.PARAMETER Uri`, `.SYNOPSIS`) or its `<# ... #>` block comments
  if (POWERSHELL_HELP.test(text) || (/^[ \t]*<#/m.test(text) && /#>[ \t]*$/m.test(text))) return { code: 'ps1', rule: 'powershell-comment' };

  // nginx, Apache, Dockerfile, HCL, Makefile, .env: their structure settles them (config-rules.ts)
  const config = matchConfigFormat(text);
  if (config) return config;

  // YAML front matter followed by a Markdown / prose body: a Markdown document (Jekyll, Hugo, ...).
  // one way to match each line (key, indented continuation, blank): no backtracking blow-up
  const fm = /^---\n((?:[\w-]+:.*\n|[ \t]+\S.*\n|[ \t]*\n)*?)---\n([\s\S]*)$/.exec(text);
  if (fm && fm[2].trim() !== '') {
    const body = fm[2];
    if (markdownScore(body) >= 1 || proseFeatures(body).isProse) return { code: 'md', rule: 'front-matter' };
  }
  return null;
}

/* ------------------------------------------------------------------ prose / markdown */

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
const MARKUP_TAG = /<\/[A-Za-z][\w:-]*\s*>|<[A-Za-z][\w:-]*(?:\s+[\w:-]+(?:=(?:"[^"\n]*"|'[^'\n]*'|[^\s"'<>]+))?)*\s*\/?>/;

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
    ((f.words >= 4 && f.codeCharRatio < 0.025 && f.stopwordRatio >= 0.2 && f.sentenceRatio >= 0.6 && f.indentRatio < 0.34) ||
      // a few plain words ("hello world", "see you at 5pm!"): no code characters at all
      (f.words >= 1 && f.words < 4 && code === 0 && /^[\w\s.,!?'":-]*$/.test(text.trim()) && !/[._]\w/.test(text)) ||
      // a note in telegraphic English, few stopwords ("Release checklist: bump version, tag and
      // push."): up to three unindented sentence lines ending like a sentence, no code characters
      (f.words >= 4 && code === 0 && f.sentenceRatio === 1 && f.indentRatio === 0 && lines.length <= 3 && /[.!?]$/.test(text.trim())));
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
  if (/!?\[[^\]\n]{1,200}\]\((?:https?:\/\/|mailto:|#|\.{0,2}\/|[\w-]+(?:\/[\w.-]+)*\.(?:md|html?|png|jpe?g|gif|svg)\b)[^)\s]*\)/.test(text)) score += 1.5;
  if (/^#{1,6} +\S/m.test(text)) score += 1;
  if (/^={3,}\s*$/m.test(text)) score += 1;
  // a link reference definition (`[npm-url]: https://...`, `[1]: ./docs/x.md`)
  if (/^ {0,3}\[[^\]\n]{1,100}\]:[ \t]*(?:<[^>\n]+>|(?:https?:\/\/|mailto:|#|\.{0,2}\/)\S*)[ \t]*$/m.test(text)) score += 1.5;
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

/* ------------------------------------------------------------------ dialects */

const TS_MARKERS: readonly RegExp[] = [
  /^[ \t]*(?:export\s+)?(?:declare\s+)?(?:interface|type)\s+[A-Z]\w*\s*(?:<[^>\n]*>)?\s*(?:=|\{|extends)/m,
  /^[ \t]*(?:export\s+)?(?:const\s+)?enum\s+\w+\s*\{/m,
  // access modifiers, before other modifiers too (`public async apply()`, `private get first()`)
  /\b(?:private|public|protected)\s+(?:(?:readonly|static|async|get|set|abstract|override)\s+)*[\w$#]+\s*[:=(;?<]/,
  /\breadonly\s+[\w[]/,
  /\b(?:let|const|var)\s+\w+\s*:\s*[\w<>[\]|, .]+=/,
  // a typed first parameter (`(name: string,`, `(req: Request)`); after a comma only an optional one
  // (`, key?: K`): `, store: KnexStore,` is also a JavaScript object literal
  /\(\s*\w+\??\s*:\s*(?:string|number|boolean|any|unknown|void|never|object|[A-Z]\w*(?:<[^>\n]*>)?)(?:\[\])*\s*[,)=]/,
  /,\s*\w+\?\s*:\s*[\w'"[{(]/,
  /\)\s*:\s*(?:Promise<|(?:string|number|boolean|any|unknown|void|never|[A-Z]\w*(?:<[^>\n]*>)?)(?:\[\])*)(?:\s*\|\s*\w+)*\s*(?:=>|\{)/,
  // a type assertion (`{} as Options`, `x as const`): outside import and export lists, JavaScript has no `as`
  /[\w$)\]}]\s+as\s+(?:[A-Z][\w.]*|const|string|number|boolean|any|unknown|never|object)\b/,
  // a generic call with a type argument (`expectType<Options>(`, `useState<string>(`, `get<{ name: string }>(`)
  /\b[a-z]\w*<(?:string|number|boolean|any|unknown|[A-Z]\w*|\{[^{}\n]*\})(?:\[\])?>\(/,
  /\b(?:new\s+)?[A-Z]\w*<(?:string|number|boolean|any|unknown|[A-Z]\w*)(?:\[\])?(?:\s*,\s*[\w<>[\]]+)*>\s*\(/,
  /^[ \t]*import\s+type\s/m,
  /\bimplements\s+[A-Z]/,
];

/** More TypeScript-only syntax, looked for in code only (JSDoc writes `{string}`, `name: string`). */
const TS_CODE_MARKERS: readonly RegExp[] = [
  // non-null assertions, generic functions, abstract classes, ambient and namespace declarations,
  // optional members and type annotations with a primitive type (none is JavaScript)
  /[\w)\]]!\.[A-Za-z_]/,
  /\bfunction\s*\*?\s*\w*\s*<[A-Z]\w*(?:\s+extends\s[^>\n]{0,80})?(?:\s*,\s*[A-Z]\w*)*>\s*\(/,
  /\babstract\s+class\b/,
  /^[ \t]*(?:export\s+)?(?:declare\s+(?:module|global|const|function|let|var|class|namespace)|namespace\s+[A-Z]\w*\s*\{)/m,
  /^[ \t]*(?:readonly\s+)?[A-Za-z_]\w*\?\s*:\s*[\w'"[{(]/m,
  /\w\s*:\s*(?:string|number|boolean|unknown|never)(?:\[\])?\s*[;,)=|]/,
  // a declared variable with a type (`const open: Contract['open'] = ...`): `let x:` is never JavaScript
  /\b(?:let|const|var)[ \t]+[A-Za-z_$][\w$]*[ \t]*:[ \t]*[\w'"[{(<]/,
];

/** TypeScript's non-null assertion before `;`, `,`, `)` or `]` (`this.observers = null!;`), looked for outside comments and strings. */
const TS_NON_NULL = /[\w)\]]![ \t]*[;,)\]]/;

const CPP_MARKERS: readonly RegExp[] = [
  /\bstd::/,
  /#\s*include\s*<(?:iostream|vector|string|map|unordered_map|set|unordered_set|memory|algorithm|sstream|fstream|thread|mutex|functional|utility|array|optional|chrono|c(?:stdio|stdlib|string|math|stdint|assert))>/,
  /\btemplate\s*</,
  /\bnamespace\s+\w+/,
  /^[ \t]*(?:public|private|protected)\s*:/m,
  /\bclass\s+\w+[^;\n]*\{/,
  /\b(?:nullptr|constexpr|noexcept|static_cast|dynamic_cast|reinterpret_cast)\b/,
  /\w::~?\w/,
  /\bauto\s*&{0,2}\s*\[/,
  /\boperator\s*(?:[-+*/%^&|~!=<>[\]()]+|<<|>>)\s*\(/,
  /\b(?:cout|cin|cerr)\s*(?:<<|>>)/,
];

/** More C++-only syntax, looked for in code only (`virtual` or `this->` in a C comment is prose). */
const CPP_CODE_MARKERS: readonly RegExp[] = [
  // members through `this`, C++ keywords, extensionless standard headers, `new` / `delete`,
  // reference parameters, exceptions, type deduction: none is C
  /\bthis->/,
  /\b(?:virtual|override|typename|explicit|mutable)\b/,
  /\busing\s+(?:namespace\s+\w|\w+\s*=)/,
  /#\s*include\s*(?:<[a-z_]+>|["<][^">\n]+\.(?:hpp|hh|hxx|h\+\+)[">])/,
  /=\s*new\s+[A-Za-z_][\w:]*\s*[([{;<]/,
  /^[ \t]*delete\s*(?:\[\]\s*)?[A-Za-z_][\w.>-]*\s*;/m,
  /\bconst\s+[A-Za-z_][\w:<>, ]{0,60}&\s*[A-Za-z_]\w*\s*[,)=;]/,
  /\bcatch\s*\(/,
  /\bauto\s+[&*]?\s*[A-Za-z_]\w*\s*[=:{]/,
];

const SCSS_MARKERS: readonly RegExp[] = [
  /^[ \t]*\$[\w-]+\s*:/m,
  /@(?:mixin|include|extend|use|forward|each|for|function|return|if|else)\b/,
  /#\{/,
  /&(?:[:.\-_[]|\w)/,
  /^[ \t]*%[\w-]+\s*\{/m,
  /^[ \t]*\/\/ /m,
  // a `$variable` used in a value, `// comments` after a declaration, Sass-only flags and at-rules
  /:[^;{}\n:$"']*\$[A-Za-z_]/,
  /[;{}][ \t]*\/\/[^\n]*$/m,
  /!default\b|@(?:content|at-root|debug|warn|error|while)\b/,
  // a `$variable` anywhere (in an argument list, a list of values: CSS has none outside strings),
  // and a map entry whose key is a number (`30: #fd8ba0,`: no CSS property starts with a digit)
  /(?:^|[\s,(])\$[A-Za-z_][\w-]*/m,
  /^[ \t]*\d[\w.-]*[ \t]*:(?!:)/m,
];

/** TOML-only syntax: quoted / array / inline-table / boolean / date values, arrays of tables. */
const TOML_MARKERS: readonly RegExp[] = [/^[ \t]*\[\[[\w.-]+\]\][ \t]*$/m, /^[ \t]*[\w.-]+[ \t]*=[ \t]*(?:"|'|\[|\{|true\b|false\b|\d{4}-\d{2}-\d{2})/m];

/**
 * Not TOML: a table name with a character a bare TOML key cannot have (`[mypy-foo.*]`,
 * `[tool:pytest]`), or a value TOML cannot parse: a bare word (`show-source = True`,
 * `level = INFO`) or a brace around a bare word (`commands = {posargs}`, tox's substitution).
 */
function notToml(text: string): boolean {
  for (const line of text.split('\n')) {
    const table = /^[ \t]*\[\[?([^[\]\n]+)\]\]?[ \t]*(?:#.*)?$/.exec(line);
    if (table && /[^\w.\s-]/.test(table[1].replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, ''))) return true;
    const pair = /^[ \t]*[\w.-]+[ \t]*=[ \t]*(\S.*)$/.exec(line);
    if (pair && (/^[A-Za-z_]/.test(pair[1]) ? !/^(?:true|false|inf|nan)\b/.test(pair[1]) : /^\{\s*[\w.-]+\s*\}/.test(pair[1]))) return true;
  }
  return false;
}

const HTML_TAGS = new Set(
  (
    'a abbr address article aside audio b body br button canvas caption code div dl dt dd em embed fieldset figure ' +
    'footer form h1 h2 h3 h4 h5 h6 head header hr html i iframe img input label legend li link main meta nav ol ' +
    'option p pre script section select small span strong style sub sup table tbody td template textarea tfoot th ' +
    'thead title tr u ul video ' +
    // more of HTML's elements, old ones too (documentation generators still write <tt> and <font>), not
    // those XML vocabularies use as well (map, summary, data, source, param, object, time, menu, ...)
    'big blockquote center cite col colgroup datalist del dfn dialog figcaption font frameset hgroup ins kbd ' +
    'mark meter nobr noframes noscript optgroup picture progress rp rt samp strike tt var wbr'
  ).split(' '),
);

/** CSS with a rule nested in another rule (not in an @media / @supports block) is SCSS / Less. */
function hasNestedRules(text: string): boolean {
  const stack: boolean[] = []; // true = a style rule block
  let prelude = '';
  const src = text.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const ch of src) {
    if (ch === '{') {
      const isRule = !prelude.trim().startsWith('@') && prelude.trim() !== '';
      if (isRule && stack.length && stack[stack.length - 1] && !/^[\w-]+\s*:/.test(prelude.trim())) return true;
      stack.push(isRule);
      prelude = '';
    } else if (ch === '}') {
      stack.pop();
      prelude = '';
    } else if (ch === ';') {
      prelude = '';
    } else {
      prelude += ch;
    }
  }
  return false;
}

/** Dockerfile instructions at the start of a line (shell commands are lower case). */
const DOCKERFILE_INSTRUCTION =
  /^(?:FROM|RUN|CMD|LABEL|EXPOSE|ENV|ADD|COPY|ENTRYPOINT|VOLUME|USER|WORKDIR|ARG|ONBUILD|STOPSIGNAL|HEALTHCHECK|SHELL|MAINTAINER)[ \t]+\S/m;

/**
 * The text without its comments (C-family and CSS syntax: `/* ... *\/`, the `*` lines of a
 * block comment cut by the window, and with `lineComments`, `// ...` not preceded by `:` as in
 * URLs): words in comments (`virtual`, `@include`, `{string}` in JSDoc) are not syntax.
 * Linear in the length of the text.
 */
function withoutComments(text: string, lineComments: boolean): string {
  let out = '';
  let i = 0;
  for (;;) {
    const open = text.indexOf('/*', i);
    if (open < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, open) + ' ';
    const close = text.indexOf('*/', open + 2);
    if (close < 0) break;
    i = close + 2;
  }
  out = out.replace(/^[ \t]*\*(?:[ \t/]|$)[^\n]*$/gm, '');
  return lineComments ? out.replace(/(^|[^:])\/\/[^\n]*/gm, '$1') : out;
}

/** The text with its string literals emptied (`'Done!'` -> `''`; quoted ones on one line, template literals on any). */
function withoutStrings(text: string): string {
  return text.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
}

/** The text's code alone: comments (line comments too) left out and strings emptied. */
function codeOnly(text: string): string {
  return withoutStrings(withoutComments(text, true));
}

function count(markers: readonly RegExp[], text: string): number {
  return markers.reduce((n, re) => n + (re.test(text) ? 1 : 0), 0);
}

/**
 * Choose between a language and its near-superset: syntax only the larger one allows moves the
 * answer to it; without such syntax the classifier's choice stands (it reads the style of the
 * rest: a TypeScript file's untyped lines still look like TypeScript). CSS and SCSS are the
 * exception: nothing in plain CSS is SCSS style, so a stylesheet without SCSS syntax is CSS.
 */
export function refineDialect(code: LanguageCode, text: string): LanguageCode {
  switch (code) {
    case 'js': {
      // in code only (JSDoc writes `{string}` and `name: string`; a message may say "abstract
      // class"), and not in an import or export list (`export { default as number }`)
      let typeOnly = false;
      // (a list the window cuts is a list to its end or from its start)
      const code = codeOnly(text).replace(/\b(?:import|export)\s*\{[^}]*\}?|^[^{]*\}\s*from\b/g, (list) => {
        typeOnly ||= /[{,]\s*type\s+[\w$]/.test(list); // `export { type Options }`
        return '';
      });
      return typeOnly || count(TS_MARKERS, code) > 0 || count(TS_CODE_MARKERS, code) > 0 || TS_NON_NULL.test(code) ? 'ts' : 'js';
    }
    case 'c':
      return count(CPP_MARKERS, text) > 0 || count(CPP_CODE_MARKERS, withoutComments(text, true)) > 0 ? 'cpp' : 'c';
    case 'css':
    case 'scss':
      // Every stylesheet is valid SCSS: only SCSS's own syntax says SCSS.
      // (`// comments` are SCSS syntax, so only block comments are left out)
      return count(SCSS_MARKERS, withoutComments(text, false)) > 0 || hasNestedRules(text) ? 'scss' : 'css';
    case 'toml':
    case 'ini':
      return count(TOML_MARKERS, text) > 0 && !notToml(text) ? 'toml' : 'ini';
    case 'sh':
      return DOCKERFILE_INSTRUCTION.test(text) ? 'dockerfile' : 'sh';
    case 'html':
    case 'xml': {
      // a namespace prefix on an element (`<xs:element`, `<android:...`) is XML, never HTML
      if (/<\/?[A-Za-z][\w.-]*:[A-Za-z]/.test(text)) return 'xml';
      const tags = [...text.matchAll(/<([A-Za-z][\w:.-]*)/g)].map((m) => m[1]);
      if (!tags.length) return code;
      const html = tags.filter((t) => HTML_TAGS.has(t.toLowerCase())).length;
      return html / tags.length >= 0.5 ? 'html' : 'xml';
    }
    default:
      return code;
  }
}

/* ------------------------------------------------------------------ syntax a language cannot have */

/** Double-quoted strings of one line, as JSON writes them. */
const JSON_STRING = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * Outside its strings, JSON has only brackets, commas, colons, numbers, `true`, `false` and
 * `null` (comments are allowed, as JSONC files have them). Anything else (`=>`, `=`, `;`,
 * `$x`, a bare word) is not JSON, whatever the window looks like.
 */
function notJson(text: string): boolean {
  const rest = text
    .replace(JSON_STRING, '""')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, ' ')
    .replace(/\b(?:true|false|null)\b/g, ' ');
  return /[^\s{}[\]:,"0-9.eE+-]/.test(rest);
}

/**
 * Not JavaScript / TypeScript: a hash pair (`'key' => value`), Perl (`my $x`, `sub name {`, `$x->{k}`, `qw(...)`, `use strict;`,
 * `package A::B;`) or a typed declaration of Dart / Java / C# (`String name =`, `final int n;`),
 * or Dart's `import 'package:...'`. None of these parses as JS or TS.
 */
const NOT_JS: readonly RegExp[] = [
  // `=>` after a string or a number: a Perl / PHP / Ruby hash pair, never an arrow function
  /(?:"[^"\n]*"|'[^'\n]*'|(?:^|[\s,([{])\d+)\s*=>/,
  /\bmy\s+[$@%][\w{]|\bsub\s+\w+\s*\{|\$\w+->[{[]|\bqw\s*[(/{[]/,
  /^[ \t]*(?:use\s+(?:strict|warnings|vars|constant|[A-Z]\w*(?:::\w+)+)\b|package\s+\w+(?:::\w+)+\s*;)/m,
  /^[ \t]*(?:(?:final|static|const|late|required|private|public|protected)\s+)*(?:int|double|num|bool|String|dynamic|(?:List|Map|Set|Future|Stream)<[^>\n]*>)\??\s+[a-z_]\w*\s*(?:[=;,)]|\()/m,
  /^[ \t]*(?:import|export|part)\s+'package:|^[ \t]*part\s+of\b/m,
  // a Dart closure passed as an argument (`test('x', () {`): JavaScript needs `=>` or `function`
  /[(,][ \t]*\([^()\n]*\)[ \t]*(?:async[ \t]*)?\{/,
];

/**
 * Not Java, looked for in code only (comments and strings emptied): C#'s `const`, `foreach`,
 * `using X;`, `namespace X`, properties (`{ get;`), `string` / `bool` types and `=>`; PHP's
 * `use A\B;`. Java reserves `const` and never has `=>` (its lambdas and switch arms use `->`).
 */
const NOT_JAVA: readonly RegExp[] = [
  /\bconst\s+[A-Za-z_]/,
  /=>/,
  /^[ \t]*using\s+(?:static\s+)?[A-Z][\w.]*\s*;/m,
  /^[ \t]*namespace\s+[A-Z][\w.]*\s*(?:\{|;|$)/m,
  /(?<![.\w])foreach\s*\(/,
  /\{\s*get\s*;/,
  /^[ \t]*use\s+[A-Z][\w\\]*(?:\s+as\s+\w+)?\s*;/m,
  /\b(?:string|bool)\s+[a-z_]\w*\s*[=;,)]/,
];

/** Scala's (and sbt's) `++=`. */
const SBT_APPEND = /\+\+=/;
/** Languages without a `++=` operator (Haskell and Clojure may name a function so; prose may mention it). */
const NO_SBT_APPEND: ReadonlySet<LanguageCode> = new Set<LanguageCode>([
  'py',
  'kt',
  'go',
  'r',
  'c',
  'cpp',
  'cs',
  'rb',
  'lua',
  'swift',
  'dart',
  'rs',
  'php',
  'erl',
]);

/** Not Kotlin: Scala's `lazy val`, `def`, traits, case classes, `implicit`. */
const NOT_KOTLIN: readonly RegExp[] = [
  /\blazy\s+val\b/,
  /^[ \t]*(?:(?:override|private|protected|final|implicit)\s+)*def\s+[A-Za-z_]\w*/m,
  /^[ \t]*(?:sealed\s+)?trait\s+[A-Z]/m,
  /\bcase\s+class\b|\bimplicit\s+(?:val|def|class)\b/,
];

/**
 * Not Python: an INI section header at the start of a line with a `key = value` line right
 * under it, comment and blank lines between (`[galaxy-importer]` / `LOG_LEVEL = DEBUG`): a list
 * display alone on a line, then an assignment, is valid Python that no Python file contains;
 * indented under it (`[colors]` / `\tbackground = "#fff"`), not even valid: Python indents only
 * after a line that opens a block.
 */
const INI_SECTION = /^\[[A-Za-z_][\w .:-]*\][ \t]*\n(?:[ \t]*(?:[#;][^\n]*)?\n)*[ \t]*[A-Za-z_][\w.-]*[ \t]*=/m;

/**
 * Not Python either, outside strings and comments: a setting whose key has a dash (`line-length =
 * 88`: Python cannot assign to a subtraction) or whose value is a path (`TMP_ROOT_DIR = /tmp`,
 * `save_path = ~/.retry`: no Python expression starts with `/`).
 */
const NOT_PYTHON_SETTING = /^[ \t]*[A-Za-z_]\w*(?:-\w+)+[ \t]*=(?!=)|^[ \t]*[A-Za-z_][\w.]*[ \t]*=[ \t]*~?\//m;

/** A character literal (Go's rune): one character or one escape (`'a'`, `'世'`, `'\\n'`, `'\\0'`, `'\\x41'`, `'\\u00e9'`). */
const CHAR_LITERAL = /^(?:[^\\]|\\(?:[abfnrtv\\'"$?e]|x[0-9a-fA-F]{1,4}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}))$/u;

/**
 * Outside comments and strings, Go has no `===`, `!==`, `=>` or `function`, and no `= {` (a
 * composite literal names its type: `x := Config{`).
 */
const NOT_GO_CODE = /===|!==|=>|\bfunction\b|(?:^|[^=!<>:])=[ \t]*\{/m;

/**
 * Outside comments and strings, Python has no `&&`, `||`, `===`, `!==` or `=>`, no `var x =`,
 * and no `} else {`. (`===` between operands: a docstring cut open leaves its `=====` underlines.)
 */
const NOT_PYTHON_CODE = /&&|\|\||[\w)\]][ \t]*[!=]==[ \t]*[\w(['"]|=>|\bvar[ \t]+[A-Za-z_$][\w$]*[ \t]*=|\}[ \t]*else[ \t]*\{/;

/** Python code alone: strings (docstrings too) emptied, `#` comments out. */
function pythonCode(text: string): string {
  return text.replace(/[rbuRBU]{0,2}(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g, "''").replace(/#[^\n]*/g, '');
}

/**
 * C and C++ declare with a type: `var x =` and `let x =` are JavaScript's (or Swift's, Rust's). And
 * C++'s access specifiers stand alone (`private:`, `: public Base`): an access keyword opening a
 * line before a method's name and its parameters (`private trimBuffer() {`, `public async up(`) is
 * TypeScript's. (Java and C# put a return type between; their constructors are capitalised.)
 */
const NOT_C_CODE =
  /^[ \t]*(?:(?:var|let)[ \t]+[A-Za-z_$][\w$]*[ \t]*=|(?:public|private|protected)[ \t]+(?:(?:static|async|readonly|override|abstract)[ \t]+)*[a-z_$][\w$]*[ \t]*\()/m;

/**
 * Outside comments and strings, Dart has no `===` or `!==`, no `function` or `let`, no
 * `undefined`, and its `const` takes a constant, not `await` or `require(...)`.
 */
const NOT_DART_CODE = /===|!==|\bfunction\b|\blet[ \t]+[\w${[]|\bundefined\b|\bconst[ \t]+[\w$]+[ \t]*=[ \t]*(?:await\b|require[ \t]*\()/;

/**
 * The text without comments and with its double-quoted strings emptied (Java's text blocks and
 * Go's backtick strings too); single-quoted literals are left as they are.
 */
function withoutDoubleQuoted(text: string): string {
  return withoutComments(text, true).replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|`[^`]*`/g, '""');
}

/** A single-quoted literal of one line; its content is the group. */
const SINGLE_QUOTED = /'((?:[^'\\\n]|\\.)*)'/g;

/**
 * A single-quoted literal of more than one character (`require('fs')`, `'utf8'`) outside
 * comments and strings: a string, which Go and Java never write so. (Not checked for Scala, whose
 * symbols are `'name`, nor C#, Kotlin or Swift, whose interpolations nest strings in strings:
 * `$"{string.Join(", ", names)} isn't"`.)
 */
function hasSingleQuotedString(code: string): boolean {
  for (const m of code.matchAll(SINGLE_QUOTED)) if (!CHAR_LITERAL.test(m[1])) return true;
  return false;
}

/**
 * XML quotes every attribute value: `attr={60}` or `attr=x` in a start tag (JSX, HTML) is not XML.
 * Looked for in tags that open a line, outside comments.
 */
const UNQUOTED_ATTRIBUTE = /^[ \t]*<[A-Za-z][\w:.-]*(?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s+[\w:.-]+\s*=\s*[^\s"'>]/m;

/**
 * Whether the text holds syntax the language `code` never allows, so the model's choice of it
 * must give way to its next best. Only languages with a precise grammar test are checked.
 */
export function ruledOut(code: LanguageCode, text: string): boolean {
  if (NO_SBT_APPEND.has(code) && SBT_APPEND.test(text)) return true;
  switch (code) {
    case 'java': {
      const body = codeOnly(text);
      return NOT_JAVA.some((re) => re.test(body)) || (text.includes("'") && hasSingleQuotedString(withoutDoubleQuoted(text)));
    }
    case 'kt': {
      const body = codeOnly(text);
      return NOT_KOTLIN.some((re) => re.test(body));
    }
    case 'py': {
      if (INI_SECTION.test(text)) return true;
      const code = pythonCode(text);
      return NOT_PYTHON_CODE.test(code) || NOT_PYTHON_SETTING.test(code);
    }
    case 'c':
    case 'cpp':
      return NOT_C_CODE.test(codeOnly(text));
    case 'ex':
      // Ruby's heredoc (`doc: <<-DOC`) and block parameters (`do |args|`): Elixir has neither
      return /<<[-~][A-Z_]{2,}\b|<<[A-Z_]{2,}[ \t]*$|\bdo[ \t]*\|/m.test(text);
    case 'json':
      return notJson(text);
    case 'xml':
      return UNQUOTED_ATTRIBUTE.test(text.replace(/<!--[\s\S]*?-->/g, ''));
    case 'dart':
      return NOT_DART_CODE.test(codeOnly(text));
    case 'go': {
      const code = withoutDoubleQuoted(text);
      return hasSingleQuotedString(code) || NOT_GO_CODE.test(code.replace(SINGLE_QUOTED, "''"));
    }
    case 'js':
    case 'ts':
      return NOT_JS.some((re) => re.test(text));
    case 'css':
    case 'scss':
      // a stylesheet has no element tags (`<style>`, `</div>`) outside its strings (an SVG in
      // a data URL): that is the HTML around it
      return MARKUP_TAG.test(withoutComments(text, false).replace(/"[^"\n]*"|'[^'\n]*'/g, '""'));
    default:
      return false;
  }
}
