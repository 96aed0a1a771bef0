/** Human names of the classification.specific codes Trove classifies into (and their aliases). */
const NAMES: Record<string, string> = {
  py: 'Python', py3: 'Python', pyw: 'Python', pyi: 'Python', ts: 'TypeScript', tsx: 'TypeScript (TSX)',
  js: 'JavaScript', jsx: 'JavaScript (JSX)', mjs: 'JavaScript', java: 'Java', go: 'Go', rs: 'Rust', c: 'C', h: 'C',
  cpp: 'C++', cc: 'C++', cxx: 'C++', hpp: 'C++', cs: 'C#', swift: 'Swift', kt: 'Kotlin', rb: 'Ruby', php: 'PHP',
  sql: 'SQL', sh: 'Shell', bash: 'Bash', zsh: 'Zsh', bat: 'Batch', cmd: 'Batch', ps1: 'PowerShell', html: 'HTML',
  htm: 'HTML', xml: 'XML', css: 'CSS', scss: 'SCSS', json: 'JSON', yaml: 'YAML', yml: 'YAML', toml: 'TOML',
  md: 'Markdown', markdown: 'Markdown', tex: 'LaTeX', r: 'R', dart: 'Dart', lua: 'Lua', pl: 'Perl', pm: 'Perl',
  hs: 'Haskell', scala: 'Scala', erl: 'Erlang', ex: 'Elixir', clj: 'Clojure', dockerfile: 'Dockerfile',
  txt: 'plain text', text: 'plain text', csv: 'CSV', matlab: 'MATLAB', coffee: 'CoffeeScript', ipynb: 'Jupyter notebook',
};

/** "py" -> "Python"; "hljs-elixir" -> "Elixir"; unknown codes are shown as given. */
export function languageName(specific: string): string {
  const known = NAMES[specific] ?? NAMES[specific.toLowerCase()];
  if (known) return known;
  if (specific.startsWith('hljs-')) {
    const name = specific.slice(5).replace(/-/g, ' ');
    return name.charAt(0).toUpperCase() + name.slice(1);
  }
  if (!specific || specific === 'UNKNOWN') return 'an unknown language';
  return specific;
}
