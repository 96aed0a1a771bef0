import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Each module owns its tables: every SQL text naming a table stands in a file of the module (or
 * common/ part) that owns it. Other modules read and change that data through the owner's API
 * (docs/ARCHITECTURE.md). A new table must be given an owner here.
 */
const OWNERS: Record<string, string[]> = {
  'modules/assets': [
    'assets',
    'formats',
    'annotations',
    'tags',
    'websites',
    'workstream_summaries',
    'workstream_summaries_fts',
    'asset_tags',
    'asset_websites',
    'asset_workstream_summaries',
    'activities',
    'asset_enrichments',
    'sensitives',
  ],
  'modules/search': [
    'search_analysis',
    'search_vectors',
    'search_model_vectors',
    'search_documents',
    'search_input',
    'search_staged',
    'search_staged_flush',
    'search_stats',
    'search_tags',
    'search_trigrams',
    'search_vocab',
    'search_vocab_by_length',
    'search_vocab_by_term',
    'search_words',
    'search_words_vocab',
  ],
  'modules/conversations': [
    'conversations',
    'conversation_messages',
    'conversation_annotations',
    'anchors',
    'ranges',
    'conversation_anchors',
    'conversation_assets',
    'conversation_grounding_messages',
    'conversation_grounding_ranges',
    'conversation_websites',
    'conversation_workstream_summaries',
  ],
  'modules/connector': ['connector_intentions', 'connector_events'],
  'modules/system': ['applications', 'idempotency_keys'],
  'modules/models': ['models'],
  'modules/mcp': ['mcp_sessions', 'mcp_relay'],
  'common/database': ['settings'],
  'common/events': ['stream_events'],
};

const SRC = join(__dirname, '..', '..', 'src');
const owner = new Map(Object.entries(OWNERS).flatMap(([part, tables]) => tables.map((t) => [t, part] as const)));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** `modules/assets` for src/modules/assets/..., `common/events` for src/common/events/... */
function partOf(file: string): string {
  return relative(SRC, file).split('/').slice(0, 2).join('/');
}

/** The tables the SQL of a file names: after FROM, JOIN, INTO, UPDATE, TABLE, in string and template literals. */
function tablesNamed(source: string): Set<string> {
  const out = new Set<string>();
  for (const literal of source.match(/`[^`]*`|'[^'\n]*'|"[^"\n]*"/g) ?? []) {
    for (const [, table] of literal.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+"?([a-z_]+)"?/g)) out.add(table);
  }
  return out;
}

describe('each module owns its tables', () => {
  it('every table of the migrations has an owner', () => {
    const created = new Set<string>();
    for (const file of files(join(SRC, 'migrations'))) {
      for (const [, table] of readFileSync(file, 'utf8').matchAll(
        /CREATE (?:VIRTUAL )?(?:TABLE|VIEW) (?:IF NOT EXISTS )?"?([a-z_]+)"?/g,
      )) {
        if (!table.startsWith('temporary_')) created.add(table);
      }
    }
    expect([...created].filter((t) => !owner.has(t)).sort()).toEqual([]);
  });

  it("no SQL outside a table's owner names it", () => {
    const foreign: string[] = [];
    for (const file of files(SRC).filter((f) => !f.includes('/migrations/'))) {
      const part = partOf(file);
      for (const table of tablesNamed(readFileSync(file, 'utf8'))) {
        const own = owner.get(table);
        if (own && own !== part) foreign.push(`${relative(SRC, file)} names ${table} (owned by ${own})`);
      }
    }
    expect(foreign).toEqual([]);
  });

  it('finds table names in the SQL it reads (the check itself works)', () => {
    expect([...tablesNamed('db.query(em, `SELECT id FROM assets a JOIN formats f ON f.asset_id = a.id`)')]).toEqual([
      'assets',
      'formats',
    ]);
    expect([...tablesNamed('`INSERT INTO "stream_events" (topic) VALUES ($1)`')]).toEqual(['stream_events']);
  });
});
