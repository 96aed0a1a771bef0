import { codeOnly, count, withoutComments } from './code-text';
import { LanguageCode } from './languages';

/**
 * `refineDialect`: pick between a language and its near-superset (C / C++, JS / TS, CSS / SCSS,
 * HTML / XML, INI / TOML) from syntax only one of them has. Both models confuse these pairs, and
 * the syntax decides them far more reliably than either model.
 */

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
const TOML_MARKERS: readonly RegExp[] = [
  /^[ \t]*\[\[[\w.-]+\]\][ \t]*$/m,
  /^[ \t]*[\w.-]+[ \t]*=[ \t]*(?:"|'|\[|\{|true\b|false\b|\d{4}-\d{2}-\d{2})/m,
];

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
    if (
      pair &&
      (/^[A-Za-z_]/.test(pair[1]) ? !/^(?:true|false|inf|nan)\b/.test(pair[1]) : /^\{\s*[\w.-]+\s*\}/.test(pair[1]))
    )
      return true;
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
      return typeOnly || count(TS_MARKERS, code) > 0 || count(TS_CODE_MARKERS, code) > 0 || TS_NON_NULL.test(code)
        ? 'ts'
        : 'js';
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
