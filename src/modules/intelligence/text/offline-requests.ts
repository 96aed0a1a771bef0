import { outlineCode } from './code-outline';

/**
 * What a request asks the offline engine for. It can quote passages (a question about the
 * snippets); it cannot write new text (a rewrite, new code, an explanation, a translation).
 * A commit message is the one generative request it answers, deterministically, from the
 * files and symbols a diff touches.
 */
export type OfflineRequest = { kind: 'question' } | { kind: 'commit-message' } | { kind: 'generate' };

/** Imperatives that ask for new text, at the start of a request (after "please", "can you", ...). */
const GENERATE =
  /^(?:(?:please|pls|kindly|now|ok|okay|hey)[,\s]+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|i\s+(?:want|need)\s+you\s+to\s+|help\s+me\s+)?(?:act\s+as|write|rewrite|re-write|generate|create|compose|draft|produce|implement|refactor|convert|translate|port|transform|optimi[sz]e|improve|simplify|shorten|fix|debug|explain|document|comment|suggest|summari[sz]e|provide)\b/i;

/** A prompt that dictates the form of its answer expects one to be written. */
const DICTATES_OUTPUT =
  /\b(output format|your (response|answer) should|respond (only )?with|answer (only )?with|reply (only )?with|without adding anything else)\b/i;

export function offlineRequest(query: string): OfflineRequest {
  const text = query.trim();
  if (/\bcommit message\b/i.test(text)) return { kind: 'commit-message' };
  if (GENERATE.test(text) || DICTATES_OUTPUT.test(text)) return { kind: 'generate' };
  return { kind: 'question' };
}

/** The one sentence the offline engine answers a request for new text with. */
export const CANNOT_GENERATE =
  'Trove Extractive (offline) only quotes passages of your saved snippets and cannot write new text such as this; ' +
  'to get it, configure a language model (TROVE_OLLAMA_URL, TROVE_OPENAI_URL or TROVE_GGUF_PATHS) and select it (TROVE_DEFAULT_MODEL, or the model of the request).';

type Change = 'created' | 'modified' | 'deleted';

const KIND_OF: Array<[RegExp, string]> = [
  [
    /(^|\/)(docs?|documentation)\/|\.(md|mdx|rst|adoc|txt)$|(^|\/)(README|CHANGELOG|LICENSE|CONTRIBUTING)[^/]*$/i,
    'docs',
  ],
  [/(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|_test\.go$/i, 'test'],
  [
    /(^|\/)\.github\/workflows\/|(^|\/)\.gitlab-ci\.yml$|(^|\/)\.circleci\/|(^|\/)\.ci\/|(^|\/)Jenkinsfile$|(^|\/)azure-pipelines\.yml$/i,
    'ci',
  ],
  [
    /(^|\/)(package(-lock)?\.json|yarn\.lock|pnpm-lock\.yaml|Dockerfile|docker-compose\.ya?ml|Makefile|CMakeLists\.txt|pom\.xml|build\.gradle(\.kts)?|Cargo\.(toml|lock)|go\.(mod|sum)|pyproject\.toml|setup\.(py|cfg)|requirements[^/]*\.txt|Gemfile(\.lock)?|tsconfig[^/]*\.json)$/i,
    'build',
  ],
];

const basename = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? path;

function listed(names: string[], max: number): string {
  const shown = names.slice(0, max);
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
}

/** The changed lines of one file (lines starting with + or -), and the file when known. */
export interface FileChange {
  path?: string;
  text: string;
}

/**
 * A conventional commit subject ("feat: add parse_diff in autocommit.py") built only from what
 * the request shows: the files of its change summary ("File created: **path**", as the Pieces
 * CLI sends it) and the definitions on the added and removed lines of each file's changes.
 * Null when neither files nor definitions can be read.
 */
export function commitSubject(query: string, diffs: FileChange[]): string | null {
  const files = new Map<string, Change>();
  for (const m of query.matchAll(/File (created|modified|deleted):\s*(?:\*\*([^*\n]+)\*\*|([^\s`*]+))/gi))
    files.set((m[2] ?? m[3]).trim(), m[1].toLowerCase() as Change);
  const namesOf = (lines: string[]) => [...new Set(outlineCode(lines.join('\n')).definitions.map((d) => d.name))];
  const perFile = diffs.map((c) => {
    const added: string[] = [];
    const removed: string[] = [];
    for (const line of c.text.split('\n')) {
      if (line.startsWith('+') && !line.startsWith('+++')) added.push(line.slice(1));
      else if (line.startsWith('-') && !line.startsWith('---')) removed.push(line.slice(1));
    }
    return { path: c.path, added: namesOf(added), removed: namesOf(removed) };
  });
  const before = new Set(perFile.flatMap((f) => f.removed));
  const after = [...new Set(perFile.flatMap((f) => f.added))];
  const newNames = after.filter((n) => !before.has(n));
  const goneNames = [...before].filter((n) => !after.includes(n));
  const changedNames = after.filter((n) => before.has(n));
  if (files.size === 0 && after.length === 0 && before.size === 0) return null;

  const paths = [...files.keys()];
  const kinds = new Set(paths.map((p) => KIND_OF.find(([re]) => re.test(p))?.[1] ?? 'code'));
  const changes = new Set(files.values());
  const onlyDeleted = changes.size === 1 && changes.has('deleted');
  const adds = changes.has('created') || newNames.length > 0;
  const type = kinds.size === 1 && !kinds.has('code') ? [...kinds][0] : onlyDeleted || !adds ? 'chore' : 'feat';

  let verb: string;
  let objects: string[];
  if (
    onlyDeleted ||
    (newNames.length === 0 && changedNames.length === 0 && goneNames.length > 0 && !changes.has('created'))
  ) {
    verb = 'remove';
    objects = goneNames.length && !onlyDeleted ? goneNames : paths.map(basename);
  } else if (newNames.length) {
    verb = 'add';
    objects = newNames;
  } else if (changes.size === 1 && changes.has('created')) {
    verb = 'add';
    objects = paths.map(basename);
  } else {
    verb = 'update';
    objects = changedNames.length ? changedNames : paths.map(basename);
  }
  const symbolsNamed = !objects.every((o) => paths.map(basename).includes(o));
  // Where the named symbols are: the files whose changes hold them, else the summary's files.
  const holding = [
    ...new Set(
      perFile
        .filter((f) => f.path && [...f.added, ...f.removed].some((n) => objects.includes(n)))
        .map((f) => basename(f.path!)),
    ),
  ];
  const at = holding.length ? holding : paths.map(basename);
  const where = symbolsNamed && at.length ? ` in ${at.length === 1 ? at[0] : `${at.length} files`}` : '';
  let subject = `${type}: ${verb} ${listed(objects, 3)}${where}`;
  for (let max = 2; subject.length > 72 && max >= 1; max--)
    subject = `${type}: ${verb} ${listed(objects, max)}${where}`;
  return subject.length > 72 ? `${subject.slice(0, 71).trimEnd()}…` : subject;
}
