import { codeOnly, withoutComments } from './code-text';
import { LanguageCode } from './languages';
import { MARKUP_TAG } from './prose';

/** `ruledOut`: syntax a language cannot have, which takes it out of the models' answers. */

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
const NOT_PYTHON_CODE =
  /&&|\|\||[\w)\]][ \t]*[!=]==[ \t]*[\w(['"]|=>|\bvar[ \t]+[A-Za-z_$][\w$]*[ \t]*=|\}[ \t]*else[ \t]*\{/;

/** Python code alone: strings (docstrings too) emptied, `#` comments out. */
function pythonCode(text: string): string {
  return text
    .replace(
      /[rbuRBU]{0,2}(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g,
      "''",
    )
    .replace(/#[^\n]*/g, '');
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
const NOT_DART_CODE =
  /===|!==|\bfunction\b|\blet[ \t]+[\w${[]|\bundefined\b|\bconst[ \t]+[\w$]+[ \t]*=[ \t]*(?:await\b|require[ \t]*\()/;

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
const UNQUOTED_ATTRIBUTE =
  /^[ \t]*<[A-Za-z][\w:.-]*(?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s+[\w:.-]+\s*=\s*[^\s"'>]/m;

/**
 * Whether the text holds syntax the language `code` never allows, so the model's choice of it
 * must give way to its next best. Only languages with a precise grammar test are checked.
 */
export function ruledOut(code: LanguageCode, text: string): boolean {
  if (NO_SBT_APPEND.has(code) && SBT_APPEND.test(text)) return true;
  switch (code) {
    case 'java': {
      const body = codeOnly(text);
      return (
        NOT_JAVA.some((re) => re.test(body)) || (text.includes("'") && hasSingleQuotedString(withoutDoubleQuoted(text)))
      );
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
