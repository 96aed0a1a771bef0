import { matchConfigFormat } from './config-rules';
import { FENCE_LINE, withoutComments } from './code-text';
import { LanguageCode } from './languages';
import { markdownScore, proseFeatures } from './prose';

/**
 * Hand-written signals, in four files by job:
 *  - here, `matchRules`: unambiguous evidence that settles the answer before any model runs
 *    (shebang, `<?php`, an HTML doctype, a parseable JSON document, ...);
 *  - prose.ts, `proseFeatures` / `markdownScore`: is this plain English, or Markdown with real structure?
 *  - dialects.ts, `refineDialect`: pick between a language and its near-superset;
 *  - ruled-out.ts, `ruledOut`: syntax a language cannot have.
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

/** A Markdown code fence at the start of a line (```` ``` ```` or ```` ```toml ````). */
const MARKDOWN_FENCE = /^```[\w+#.-]*[ \t]*$/m;
/** A line of at least four words at the start of a line, capitalised, without code punctuation. */
const README_SENTENCE = /^[A-Z][A-Za-z'’,]*(?: [^\s;{}=]+){3,}[ \t]*$/m;

/** A keyword of PowerShell's comment-based help on a line of its own (`.SYNOPSIS`, `.PARAMETER Name`). */
const POWERSHELL_HELP =
  /^[ \t]*\.(?:SYNOPSIS|DESCRIPTION|PARAMETER[ \t]+[A-Za-z_]\w*|EXAMPLE|NOTES|INPUTS|OUTPUTS)[ \t]*$/m;

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
const CONSOLE_SESSION = new RegExp(
  String.raw`^${SHELL_PROMPT}[ \t]+(?:sudo[ \t]+)?(?:[a-z]|\.{0,2}\/|~\/)[\w./+-]*(?:[ \t][^\n$]*)?$`,
);

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
  if (POWERSHELL_HELP.test(text) || (/^[ \t]*<#/m.test(text) && /#>[ \t]*$/m.test(text)))
    return { code: 'ps1', rule: 'powershell-comment' };

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
