import { ClassificationSpecificEnum } from '../../../common/wire/enums';

/**
 * The languages the detector can answer with, and how each one is named by the two models.
 *
 * - `code` is the wire value (a `ClassificationSpecificEnum`), mostly the usual file extension.
 * - `hljs` is the highlight.js grammar whose relevance counts for this language.
 *   One grammar may feed several codes (`xml` feeds `html` and `xml`, `ini` feeds `ini` and
 *   `toml`); the dialect refinements in rules.ts then pick between them.
 * - `guesslang` are the ids of @vscode/vscode-languagedetection (the guesslang model).
 *   Careful: guesslang's Perl is `pm` (its `pl` would be Prolog); it has no SCSS class.
 */
interface LanguageSpec {
  code: ClassificationSpecificEnum;
  hljs?: string;
  guesslang?: readonly string[];
}

const LANGUAGES: readonly LanguageSpec[] = [
  { code: 'py', hljs: 'python', guesslang: ['py'] },
  { code: 'ts', hljs: 'typescript', guesslang: ['ts'] },
  { code: 'js', hljs: 'javascript', guesslang: ['js'] },
  { code: 'java', hljs: 'java', guesslang: ['java'] },
  { code: 'go', hljs: 'go', guesslang: ['go'] },
  { code: 'rs', hljs: 'rust', guesslang: ['rs'] },
  { code: 'c', hljs: 'c', guesslang: ['c'] },
  { code: 'cpp', hljs: 'cpp', guesslang: ['cpp'] },
  { code: 'cs', hljs: 'csharp', guesslang: ['cs'] },
  { code: 'swift', hljs: 'swift', guesslang: ['swift'] },
  { code: 'kt', hljs: 'kotlin', guesslang: ['kt'] },
  { code: 'rb', hljs: 'ruby', guesslang: ['rb'] },
  { code: 'php', hljs: 'php', guesslang: ['php'] },
  { code: 'sql', hljs: 'sql', guesslang: ['sql'] },
  { code: 'sh', hljs: 'bash', guesslang: ['sh'] },
  { code: 'bat', hljs: 'dos', guesslang: ['bat'] },
  { code: 'ps1', hljs: 'powershell', guesslang: ['ps1'] },
  { code: 'html', hljs: 'xml', guesslang: ['html'] },
  { code: 'xml', hljs: 'xml', guesslang: ['xml'] },
  { code: 'css', hljs: 'css', guesslang: ['css'] },
  { code: 'scss', hljs: 'scss' },
  { code: 'json', hljs: 'json', guesslang: ['json'] },
  { code: 'yaml', hljs: 'yaml', guesslang: ['yaml'] },
  { code: 'toml', hljs: 'ini', guesslang: ['toml'] },
  { code: 'ini', hljs: 'ini', guesslang: ['ini'] },
  { code: 'md', hljs: 'markdown', guesslang: ['md'] },
  { code: 'tex', hljs: 'latex', guesslang: ['tex'] },
  { code: 'r', hljs: 'r', guesslang: ['r'] },
  { code: 'dart', hljs: 'dart', guesslang: ['dart'] },
  { code: 'lua', hljs: 'lua', guesslang: ['lua'] },
  { code: 'pl', hljs: 'perl', guesslang: ['pm'] },
  { code: 'hs', hljs: 'haskell', guesslang: ['hs'] },
  { code: 'scala', hljs: 'scala', guesslang: ['scala'] },
  { code: 'erl', hljs: 'erlang', guesslang: ['erl'] },
  { code: 'ex', hljs: 'elixir', guesslang: ['ex'] },
  { code: 'clj', hljs: 'clojure', guesslang: ['clj'] },
  { code: 'dockerfile', hljs: 'dockerfile', guesslang: ['dockerfile'] },
];

/** Codes the models can vote for (plain prose, 'txt', is decided by rules, not by the models). */
export type LanguageCode = ClassificationSpecificEnum;

export const SUPPORTED_CODES: readonly LanguageCode[] = LANGUAGES.map((l) => l.code);

/** guesslang id -> our code. */
export const GUESSLANG_TO_CODE: ReadonlyMap<string, LanguageCode> = new Map(LANGUAGES.flatMap((l) => (l.guesslang ?? []).map((g) => [g, l.code] as const)));

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
export const TEXT_CODES: ReadonlySet<ClassificationSpecificEnum> = new Set<ClassificationSpecificEnum>(['txt', 'UNKNOWN']);
