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
  lines: number;
}

const MODIFIERS = String.raw`(?:(?:export|default|public|private|protected|internal|static|final|abstract|async|override|open|sealed|data|inline|pub(?:\([^)]*\))?|unsafe|extern|const|virtual|partial|readonly|declare)\s+)*`;

const DEFINITIONS: { kind: string; pattern: RegExp }[] = [
  { kind: 'class', pattern: new RegExp(String.raw`^\s*${MODIFIERS}(?:class|record)\s+([A-Za-z_$][\w$]*)`, 'gm') },
  { kind: 'interface', pattern: new RegExp(String.raw`^\s*${MODIFIERS}(?:interface|protocol)\s+([A-Za-z_$][\w$]*)`, 'gm') },
  { kind: 'trait', pattern: new RegExp(String.raw`^\s*${MODIFIERS}trait\s+([A-Za-z_][\w]*)`, 'gm') },
  { kind: 'struct', pattern: new RegExp(String.raw`^\s*${MODIFIERS}struct\s+([A-Za-z_][\w]*)`, 'gm') },
  { kind: 'struct', pattern: /^\s*type\s+([A-Za-z_]\w*)\s+struct\b/gm },
  { kind: 'interface', pattern: /^\s*type\s+([A-Za-z_]\w*)\s+interface\b/gm },
  { kind: 'enum', pattern: new RegExp(String.raw`^\s*${MODIFIERS}enum\s+(?:class\s+)?([A-Za-z_$][\w$]*)`, 'gm') },
  { kind: 'type', pattern: new RegExp(String.raw`^\s*${MODIFIERS}type\s+([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*=`, 'gm') },
  { kind: 'module', pattern: /^\s*(?:module|namespace|mod)\s+([A-Za-z_][\w.:]*)/gm },
  { kind: 'function', pattern: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*[?!]?)/gm },
  { kind: 'function', pattern: /^\s*def\s+self\.([A-Za-z_]\w*[?!]?)/gm },
  { kind: 'function', pattern: new RegExp(String.raw`^\s*${MODIFIERS}function\s*\*?\s+([A-Za-z_$][\w$.:]*)`, 'gm') },
  {
    kind: 'function',
    pattern: new RegExp(
      String.raw`^\s*${MODIFIERS}(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::\s*[^=]+)?=>`,
      'gm',
    ),
  },
  { kind: 'function', pattern: /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/gm },
  { kind: 'function', pattern: /^\s*sub\s+([A-Za-z_]\w*)/gm },
  { kind: 'function', pattern: new RegExp(String.raw`^\s*${MODIFIERS}fn\s+([A-Za-z_]\w*)`, 'gm') },
  { kind: 'function', pattern: new RegExp(String.raw`^\s*${MODIFIERS}fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)`, 'gm') },
  { kind: 'function', pattern: /^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{/gm },
  // C, C++, Java, C#: `<modifiers> <type> name(<params>) {` on one line (not control flow).
  {
    kind: 'function',
    pattern:
      /^[ \t]*(?:(?:public|private|protected|static|final|virtual|inline|override|async|synchronized|extern|unsigned|signed|const)\s+)*[A-Za-z_][\w:<>,[\]*& ]*?[\s*&]+(?!if\b|for\b|while\b|switch\b|return\b|catch\b|else\b|new\b)([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?(?:throws\s+[\w., ]+)?\s*\{/gm,
  },
  { kind: 'table', pattern: /^\s*create\s+(?:or\s+replace\s+)?(?:temporary\s+|temp\s+)?table\s+(?:if\s+not\s+exists\s+)?["`[]?([\w.]+)/gim },
  { kind: 'view', pattern: /^\s*create\s+(?:or\s+replace\s+)?(?:materialized\s+)?view\s+(?:if\s+not\s+exists\s+)?["`[]?([\w.]+)/gim },
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
const PREPROCESSOR = /^\s*#(?:!|\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import|error|line)\b)/;
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'return', 'catch', 'else', 'new', 'do', 'case', 'sizeof']);

function matches(pattern: RegExp, text: string): { index: number; name: string }[] {
  const out: { index: number; name: string }[] = [];
  for (const match of text.matchAll(pattern)) out.push({ index: match.index ?? 0, name: match[1] });
  return out;
}

/** Comment text: `#`, `//`, `--` line comments, `/* *\/` blocks and Python docstrings. */
function comments(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/\/\*+([\s\S]*?)\*\//g)) out.push(match[1].replace(/^\s*\*+ ?/gm, ''));
  for (const match of text.matchAll(/("""|''')([\s\S]*?)\1/g)) out.push(match[2]);
  let block: string[] = [];
  const flush = () => {
    if (block.length) out.push(block.join(' '));
    block = [];
  };
  for (const line of text.split('\n')) {
    const m = /^\s*(?:\/\/+|#|--)\s?(.*)$/.exec(line);
    if (m && !PREPROCESSOR.test(line)) block.push(m[1]);
    else flush();
  }
  flush();
  return out.map((c) => c.replace(/\s+/g, ' ').trim()).filter((c) => /[A-Za-z]{3,}/.test(c));
}

/** What the code defines (functions, classes, types, ...), in order of appearance, each name once. */
export function definitionsOf(text: string): Definition[] {
  const found: { index: number; kind: string; name: string }[] = [];
  for (const { kind, pattern } of DEFINITIONS) {
    for (const m of matches(pattern, text)) if (!CONTROL.has(m.name)) found.push({ ...m, kind });
  }
  found.sort((a, b) => a.index - b.index);
  const seen = new Set<string>();
  const definitions: Definition[] = [];
  for (const d of found) {
    if (seen.has(d.name)) continue;
    seen.add(d.name);
    definitions.push({ kind: d.kind, name: d.name });
  }
  return definitions;
}

export function outlineCode(text: string): CodeOutline {
  const definitions = definitionsOf(text);

  const used: { index: number; name: string }[] = [];
  const goBlock = GO_IMPORT_BLOCK.exec(text);
  IMPORTS.forEach((pattern, i) => {
    const inGoBlock = i === IMPORTS.length - 1;
    if (inGoBlock && !goBlock) return;
    const offset = inGoBlock ? goBlock!.index : 0;
    for (const m of matches(pattern, inGoBlock ? goBlock![1] : text)) used.push({ index: m.index + offset, name: m.name });
  });
  used.sort((a, b) => a.index - b.index);
  const imports = [...new Set(used.map((u) => u.name))];
  return { definitions, imports, comments: comments(text), lines: text.split('\n').filter((l) => l.trim()).length };
}
