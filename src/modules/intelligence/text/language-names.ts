/**
 * Human names of the classification.specific codes (and their aliases): the one table every
 * label of a language comes from (asset names, tags and descriptions, exports, the offline
 * engine's descriptions).
 */
const LANGUAGE_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    py: 'Python',
    py3: 'Python',
    pyw: 'Python',
    pyi: 'Python',
    ts: 'TypeScript',
    tsx: 'TypeScript',
    js: 'JavaScript',
    jsx: 'JavaScript',
    mjs: 'JavaScript',
    java: 'Java',
    go: 'Go',
    rs: 'Rust',
    c: 'C',
    h: 'C',
    cpp: 'C++',
    cc: 'C++',
    cxx: 'C++',
    hpp: 'C++',
    cs: 'C#',
    swift: 'Swift',
    kt: 'Kotlin',
    rb: 'Ruby',
    php: 'PHP',
    sql: 'SQL',
    sh: 'Shell',
    bash: 'Bash',
    zsh: 'Zsh',
    bat: 'Batch',
    cmd: 'Batch',
    ps1: 'PowerShell',
    html: 'HTML',
    htm: 'HTML',
    xml: 'XML',
    css: 'CSS',
    scss: 'SCSS',
    json: 'JSON',
    yaml: 'YAML',
    yml: 'YAML',
    toml: 'TOML',
    md: 'Markdown',
    markdown: 'Markdown',
    tex: 'LaTeX',
    r: 'R',
    dart: 'Dart',
    lua: 'Lua',
    pl: 'Perl',
    pm: 'Perl',
    hs: 'Haskell',
    scala: 'Scala',
    erl: 'Erlang',
    ex: 'Elixir',
    exs: 'Elixir',
    clj: 'Clojure',
    dockerfile: 'Dockerfile',
    'hljs-dockerfile': 'Dockerfile',
    'hljs-nginx': 'nginx',
    'hljs-apache': 'Apache',
    'hljs-makefile': 'Makefile',
    /** Prose: callers that label code leave it out (see TEXT_LANGUAGE). */
    txt: 'Text',
    text: 'Text',
    vue: 'Vue',
    svelte: 'Svelte',
    groovy: 'Groovy',
    m: 'Objective-C',
    jl: 'Julia',
    zig: 'Zig',
    sol: 'Solidity',
    tf: 'Terraform',
    hcl: 'HCL',
    ini: 'INI',
    csv: 'CSV',
    nim: 'Nim',
    elm: 'Elm',
    ml: 'OCaml',
    fs: 'F#',
    vba: 'VBA',
    coffee: 'CoffeeScript',
    matlab: 'MATLAB',
    ipynb: 'Jupyter notebook',
  }),
);

/** The name of prose (`txt`, `text`). */
export const TEXT_LANGUAGE = 'Text';

/** The table's name of a code (`py` -> `Python`, case-insensitively); undefined for codes it does not name. */
export function knownLanguageName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return LANGUAGE_NAMES.get(code) ?? LANGUAGE_NAMES.get(code.toLowerCase());
}

/** A name to show in a sentence, whatever the code: "py" -> "Python"; "hljs-elixir" -> "Elixir"; unknown codes are shown as given. */
export function languageName(specific: string): string {
  const known = knownLanguageName(specific);
  if (known) return known;
  if (specific.startsWith('hljs-')) {
    const name = specific.slice(5).replace(/-/g, ' ');
    return name.charAt(0).toUpperCase() + name.slice(1);
  }
  if (!specific || specific === 'UNKNOWN') return 'an unknown language';
  return specific;
}
