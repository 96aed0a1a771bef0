import { ClassificationSpecificEnum } from '../../../common/wire/enums';

/**
 * The languages the detector can answer with, and the highlight.js grammar of each.
 *
 * - `code` is the wire value (a `ClassificationSpecificEnum`), mostly the usual file extension.
 * - `hljs` is the highlight.js grammar whose relevance counts for this language.
 *   One grammar may feed several codes (`xml` feeds `html` and `xml`, `ini` feeds `ini` and
 *   `toml`); the dialect refinements in dialects.ts then pick between them.
 */
interface LanguageSpec {
  code: ClassificationSpecificEnum;
  hljs?: string;
}

const LANGUAGES: readonly LanguageSpec[] = [
  { code: 'py', hljs: 'python' },
  { code: 'ts', hljs: 'typescript' },
  { code: 'js', hljs: 'javascript' },
  { code: 'java', hljs: 'java' },
  { code: 'go', hljs: 'go' },
  { code: 'rs', hljs: 'rust' },
  { code: 'c', hljs: 'c' },
  { code: 'cpp', hljs: 'cpp' },
  { code: 'cs', hljs: 'csharp' },
  { code: 'swift', hljs: 'swift' },
  { code: 'kt', hljs: 'kotlin' },
  { code: 'rb', hljs: 'ruby' },
  { code: 'php', hljs: 'php' },
  { code: 'sql', hljs: 'sql' },
  { code: 'sh', hljs: 'bash' },
  { code: 'bat', hljs: 'dos' },
  { code: 'ps1', hljs: 'powershell' },
  { code: 'html', hljs: 'xml' },
  { code: 'xml', hljs: 'xml' },
  { code: 'css', hljs: 'css' },
  { code: 'scss', hljs: 'scss' },
  { code: 'json', hljs: 'json' },
  { code: 'yaml', hljs: 'yaml' },
  { code: 'toml', hljs: 'ini' },
  { code: 'ini', hljs: 'ini' },
  { code: 'md', hljs: 'markdown' },
  { code: 'tex', hljs: 'latex' },
  { code: 'r', hljs: 'r' },
  { code: 'dart', hljs: 'dart' },
  { code: 'lua', hljs: 'lua' },
  { code: 'pl', hljs: 'perl' },
  { code: 'hs', hljs: 'haskell' },
  { code: 'scala', hljs: 'scala' },
  { code: 'erl', hljs: 'erlang' },
  { code: 'ex', hljs: 'elixir' },
  { code: 'clj', hljs: 'clojure' },
  { code: 'dockerfile', hljs: 'dockerfile' },
];

/** Codes the models can vote for (plain prose, 'txt', is decided by rules, not by the models). */
export type LanguageCode = ClassificationSpecificEnum;

export const SUPPORTED_CODES: readonly LanguageCode[] = LANGUAGES.map((l) => l.code);

/** highlight.js grammar -> the codes it votes for. */
export const HLJS_TO_CODES: ReadonlyMap<string, readonly LanguageCode[]> = (() => {
  const m = new Map<string, LanguageCode[]>();
  for (const l of LANGUAGES) {
    if (!l.hljs) continue;
    const list = m.get(l.hljs) ?? [];
    list.push(l.code);
    m.set(l.hljs, list);
  }
  return m;
})();

/** Languages whose classification is TEXT rather than CODE. */
export const TEXT_CODES: ReadonlySet<ClassificationSpecificEnum> = new Set<ClassificationSpecificEnum>([
  'txt',
  'UNKNOWN',
]);
