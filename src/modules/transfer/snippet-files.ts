import { basename } from 'node:path';
import { InvalidInput } from '../../common/errors/domain-errors';
import { derivedId } from '../../common/wire/derived-id';
import { ClassificationSpecificEnum } from '../../common/wire/enums';
import { normaliseTag } from '../assets/asset-text';
import { TEXT_CODES } from '../intelligence/language/languages';
import { RecordLine } from './ndjson';

/** What a converted snippet needs from the store it goes into. */
export interface SnippetContext {
  /** The application credited with the formats (Trove itself). */
  applicationId: string;
  /** The local user (assets' and formats' creator). */
  creator: string;
  /** A fresh, increasing ISO timestamp (nowIso). */
  now(): string;
  /** The language of a text whose file says none. */
  detect(text: string): { generic: string; specific: string };
}

/** Snippets converted to records of the export format, and how many entries were not snippets (or were in the trash). */
export interface ConvertedSnippets {
  records: RecordLine[];
  skipped: number;
}

const SPECIFIC = new Set<string>(ClassificationSpecificEnum);

/**
 * Language names of VS Code (language identifiers: `snippets/python.json`, `"scope": "python"`)
 * and of massCode (its editor modes: `golang`, `c_cpp`, `plain_text`) -> Trove's
 * classification (`ClassificationSpecificEnum`, mostly the usual file extension).
 */
const LANGUAGES: Readonly<Record<string, string>> = {
  abap: 'abap',
  bat: 'bat',
  batchfile: 'bat',
  c: 'c',
  c_cpp: 'cpp',
  clojure: 'clj',
  coffee: 'coffee',
  coffeescript: 'coffee',
  cpp: 'cpp',
  'cuda-cpp': 'cpp',
  csharp: 'cs',
  css: 'css',
  dart: 'dart',
  dockerfile: 'dockerfile',
  elixir: 'ex',
  elm: 'elm',
  erlang: 'erl',
  fortran: 'f90',
  fsharp: 'fs',
  ftl: 'ftl',
  go: 'go',
  golang: 'go',
  groovy: 'groovy',
  haskell: 'hs',
  hcl: 'hcl',
  html: 'html',
  ini: 'ini',
  java: 'java',
  javascript: 'js',
  javascriptreact: 'jsx',
  jsx: 'jsx',
  json: 'json',
  json5: 'json',
  jsonc: 'json',
  hjson: 'json',
  julia: 'jl',
  kotlin: 'kt',
  latex: 'tex',
  tex: 'tex',
  lisp: 'lisp',
  lua: 'lua',
  markdown: 'md',
  matlab: 'matlab',
  mysql: 'sql',
  nim: 'nim',
  'objective-c': 'm',
  objectivec: 'm',
  'objective-cpp': 'mm',
  ocaml: 'ml',
  pascal: 'pas',
  perl: 'pl',
  pgsql: 'sql',
  php: 'php',
  plaintext: 'txt',
  plain_text: 'txt',
  text: 'txt',
  powershell: 'ps1',
  python: 'py',
  r: 'r',
  ruby: 'rb',
  rust: 'rs',
  scala: 'scala',
  scheme: 'scm',
  scss: 'scss',
  sh: 'sh',
  shellscript: 'sh',
  bash: 'sh',
  solidity: 'sol',
  sql: 'sql',
  sqlserver: 'sql',
  svelte: 'svelte',
  svg: 'svg',
  swift: 'swift',
  terraform: 'tf',
  toml: 'toml',
  tsx: 'tsx',
  typescript: 'ts',
  typescriptreact: 'tsx',
  vhdl: 'vhdl',
  vue: 'vue',
  xml: 'xml',
  xsl: 'xsl',
  yaml: 'yaml',
  zig: 'zig',
};

/** Trove's classification of a language name of VS Code or massCode, or null when it has none. */
export function languageOf(name: string | null | undefined): { generic: string; specific: string } | null {
  if (!name) return null;
  const key = name.trim().toLowerCase();
  const specific = LANGUAGES[key] ?? (SPECIFIC.has(key) ? key : null);
  if (!specific || !SPECIFIC.has(specific)) return null;
  return { generic: TEXT_CODES.has(specific as ClassificationSpecificEnum) ? 'TEXT' : 'CODE', specific };
}

/**
 * JSON with comments and trailing commas (VS Code's snippet files) parsed: `//` and `/* *\/`
 * comments outside strings become spaces, a comma before `}` or `]` is dropped, the rest is
 * JSON.parse's. A 400 naming `what` otherwise.
 */
export function parseJsonc(text: string, what: string): unknown {
  let plain = '';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  let from = i;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < n && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      plain += text.slice(from, i);
      while (i < n && text[i] !== '\n') i++;
      from = i;
    } else if (c === '/' && text[i + 1] === '*') {
      plain += text.slice(from, i);
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new InvalidInput(`${what}: a /* comment is not closed`);
      plain += ' ';
      i = end + 2;
      from = i;
    } else i++;
  }
  plain += text.slice(from);
  // Trailing commas, outside strings.
  let json = '';
  from = 0;
  for (i = 0; i < plain.length; i++) {
    const c = plain[i];
    if (c === '"') {
      for (i++; i < plain.length && plain[i] !== '"'; i++) if (plain[i] === '\\') i++;
    } else if (c === ',') {
      let j = i + 1;
      while (j < plain.length && /\s/.test(plain[j])) j++;
      if (plain[j] === '}' || plain[j] === ']') {
        json += plain.slice(from, i);
        from = i + 1;
      }
    }
  }
  json += plain.slice(from);
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new InvalidInput(`${what} is not valid JSON (with comments): ${(error as Error).message}`);
  }
}

/** Text the store can hold: no NUL, no lone surrogate (PostgreSQL refuses both). */
const storable = (text: string): boolean =>
  !text.includes('\u0000') && (text as string & { isWellFormed(): boolean }).isWellFormed();
/** A label made storable: lone surrogates replaced, NUL dropped. */
const clean = (text: string): string =>
  (text as string & { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '');

/** Builds the records of one snippet: its asset, format, description and tags. */
class SnippetRecords {
  readonly records: RecordLine[] = [];
  /** Tag records written once per import, by text. */
  private readonly tagIds = new Map<string, string>();

  constructor(private readonly context: SnippetContext) {}

  add(snippet: {
    namespace: string;
    key: string;
    name: string;
    text: string;
    language: { generic: string; specific: string } | null;
    description?: string | null;
    tags: string[];
    favorited?: boolean;
    created?: string;
    updated?: string;
  }): void {
    const { context } = this;
    const id = derivedId(snippet.namespace, snippet.key);
    snippet = {
      ...snippet,
      name: clean(snippet.name),
      description: snippet.description ? clean(snippet.description) : null,
      tags: snippet.tags.map(clean),
    };
    const created = snippet.created ?? context.now();
    const updated = snippet.updated ?? created;
    const language = snippet.language ?? context.detect(snippet.text);
    const texts = [
      ...new Set(
        snippet.tags.flatMap((t) => {
          try {
            const tag = normaliseTag(t);
            return [...tag].length <= 256 ? [tag] : [];
          } catch {
            return [];
          }
        }),
      ),
    ];
    const tagIds = texts.map((text) => {
      let tagId = this.tagIds.get(text);
      if (!tagId) {
        tagId = derivedId('tag', text);
        this.tagIds.set(text, tagId);
        const now = context.now();
        this.records.push({
          kind: 'tag',
          record: { id: tagId, text, category: 'UNKNOWN', mechanism: 'MANUAL', created_at: now, updated_at: now },
        });
      }
      return tagId;
    });
    this.records.push({
      kind: 'asset',
      record: {
        id,
        name: [...snippet.name.trim()].slice(0, 1024).join('') || null,
        creator: context.creator,
        mechanism: 'MANUAL',
        favorited: snippet.favorited === true,
        pseudo: false,
        created_at: created,
        updated_at: updated,
        deleted_at: null,
      },
    });
    this.records.push({
      kind: 'format',
      record: {
        id: derivedId(`${snippet.namespace}-format`, snippet.key),
        asset_id: id,
        position: 0,
        role: 'BOTH',
        generic: language.generic,
        specific: language.specific,
        application_id: context.applicationId,
        creator: context.creator,
        classification_pending: false,
        raw: snippet.text,
        bytes: Buffer.byteLength(snippet.text, 'utf8'),
        created_at: created,
        updated_at: updated,
      },
    });
    const description = snippet.description?.trim();
    if (description) {
      this.records.push({
        kind: 'annotation',
        record: {
          id: derivedId(`${snippet.namespace}-description`, snippet.key),
          asset_id: id,
          type: 'DESCRIPTION',
          text: description,
          mechanism: 'MANUAL',
          created_at: created,
          updated_at: updated,
        },
      });
    }
    for (const tagId of tagIds)
      this.records.push({ kind: 'asset_tag', record: { asset_id: id, tag_id: tagId, created_at: context.now() } });
  }
}

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.filter((v): v is string => typeof v === 'string')
      : [];

/**
 * VS Code snippet files (`*.code-snippets`, `snippets/<language>.json`): JSON with comments,
 * `{ "Name": { "prefix": string | string[], "body": string | string[], "description", "scope" } }`.
 * Each snippet becomes an asset named after it, its body (lines joined with "\n", placeholders
 * such as `${1:name}` kept as written) its text, its description a DESCRIPTION annotation, each
 * prefix a tag; the language comes from the scope's first language, else from the file name
 * (`python.json`), else from the text. Ids derive from the file's name and the snippet's, so a
 * second import of the same file creates nothing.
 */
export function vsCodeSnippets(
  files: Array<{ name: string; text: string }>,
  context: SnippetContext,
): ConvertedSnippets {
  const out = new SnippetRecords(context);
  let skipped = 0;
  for (const file of files) {
    const name = basename(file.name || 'snippets.code-snippets');
    const parsed = parseJsonc(file.text, name);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new InvalidInput(`${name}: a snippet file is a JSON object of snippets`);
    const fromFile = /\.json$/i.test(name) ? languageOf(name.replace(/\.json$/i, '')) : null;
    for (const [title, value] of Object.entries(parsed as Record<string, unknown>)) {
      const snippet = value as { prefix?: unknown; body?: unknown; description?: unknown; scope?: unknown };
      const body = typeof snippet === 'object' && snippet !== null ? strings(snippet.body) : [];
      const text = body.join('\n');
      if (!text.trim() || !storable(text)) {
        skipped++;
        continue;
      }
      const scope = typeof snippet.scope === 'string' ? snippet.scope.split(',').map((s) => s.trim()) : [];
      out.add({
        namespace: 'vscode-snippet',
        key: `${name}\n${title}`,
        name: title,
        text,
        language: scope.map(languageOf).find(Boolean) ?? fromFile,
        description:
          typeof snippet.description === 'string' ? snippet.description : strings(snippet.description).join('\n'),
        tags: strings(snippet.prefix),
      });
    }
  }
  return { records: out.records, skipped };
}

interface MassCodeDb {
  folders?: Array<{ id?: unknown; name?: unknown }>;
  tags?: Array<{ id?: unknown; name?: unknown }>;
  snippets?: Array<{
    id?: unknown;
    name?: unknown;
    folderId?: unknown;
    content?: Array<{ label?: unknown; language?: unknown; value?: unknown }>;
    tagsIds?: unknown;
    description?: unknown;
    isDeleted?: unknown;
    isFavorites?: unknown;
    createdAt?: unknown;
    updatedAt?: unknown;
  }>;
}

const iso = (ms: unknown): string | undefined =>
  typeof ms === 'number' && Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : undefined;

/**
 * massCode's storage (`db.json` of massCode 2 and 3: `{folders, snippets, tags}`). Each
 * fragment of a snippet's `content` becomes an asset: a snippet of one fragment is one asset
 * named after the snippet, one of several is one asset per fragment named "<snippet> (<label>)";
 * each takes the snippet's tags, its folder's name as one more tag, its description (a DESCRIPTION
 * annotation), its favourite flag and its times. Snippets in massCode's trash (`isDeleted`) and
 * empty fragments are skipped. Ids derive from the snippet's id and the fragment's position.
 */
export function massCodeSnippets(text: string, context: SnippetContext): ConvertedSnippets {
  let db: MassCodeDb;
  try {
    db = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as MassCodeDb;
  } catch (error) {
    throw new InvalidInput(`db.json is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof db !== 'object' || db === null || !Array.isArray(db.snippets)) {
    throw new InvalidInput(
      'not a massCode db.json: it must be an object with a "snippets" array (and "folders", "tags")',
    );
  }
  const names = (list: unknown) =>
    new Map(
      (Array.isArray(list) ? list : [])
        .filter(
          (x): x is { id: unknown; name: string } => typeof x === 'object' && x !== null && typeof x.name === 'string',
        )
        .map((x) => [String(x.id), x.name]),
    );
  const folders = names(db.folders);
  const tags = names(db.tags);
  const out = new SnippetRecords(context);
  let skipped = 0;
  for (const snippet of db.snippets) {
    if (
      typeof snippet !== 'object' ||
      snippet === null ||
      snippet.isDeleted === true ||
      (typeof snippet.id !== 'string' && typeof snippet.id !== 'number')
    ) {
      skipped++;
      continue;
    }
    const fragments = (Array.isArray(snippet.content) ? snippet.content : [])
      .map((f, position) => ({ f, position }))
      .filter(
        ({ f }) =>
          typeof f === 'object' &&
          f !== null &&
          typeof f.value === 'string' &&
          f.value.trim() !== '' &&
          storable(f.value),
      );
    if (fragments.length === 0) {
      skipped++;
      continue;
    }
    const name = typeof snippet.name === 'string' && snippet.name.trim() ? snippet.name.trim() : 'Untitled snippet';
    const tagTexts = [
      ...(Array.isArray(snippet.tagsIds)
        ? snippet.tagsIds.map((t) => tags.get(String(t))).filter((t): t is string => typeof t === 'string')
        : []),
      ...(folders.has(String(snippet.folderId)) ? [folders.get(String(snippet.folderId))!] : []),
    ];
    for (const { f, position } of fragments) {
      const label = typeof f.label === 'string' && f.label.trim() ? f.label.trim() : `Fragment ${position + 1}`;
      out.add({
        namespace: 'masscode-snippet',
        key: `${String(snippet.id)}\n${position}`,
        name: fragments.length > 1 ? `${name} (${label})` : name,
        text: f.value as string,
        language: languageOf(typeof f.language === 'string' ? f.language : null),
        description: typeof snippet.description === 'string' ? snippet.description : null,
        tags: tagTexts,
        favorited: snippet.isFavorites === true,
        created: iso(snippet.createdAt),
        updated: iso(snippet.updatedAt) ?? iso(snippet.createdAt),
      });
    }
  }
  return { records: out.records, skipped };
}
