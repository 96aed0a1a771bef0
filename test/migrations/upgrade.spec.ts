import { AssetsApi } from '@pieces.app/pieces-os-client';
import { rmSync } from 'node:fs';
import { DataSource, DataSourceOptions } from 'typeorm';
import { http } from '../e2e/support/http';
import { textSeed } from '../e2e/support/seeds';
import { TestServer, searchReindexed, startTestServer } from '../e2e/support/server';
import { ANALYSIS_VERSION } from '../../src/modules/search/search-index.service';

/**
 * A database written before this release's search migrations (SQLite; PostgreSQL gets the same
 * migration through every e2e spec on a fresh database): the index must come through them intact
 * and keep working. The older schema is made by undoing the migrations on a populated database
 * (their `down` restores the earlier shape, rows kept; the record of generated metadata, which
 * is newer, goes too); the next boot applies them again. Every migration from the first listed
 * here on is undone (later ones too, so that a new migration needs no entry here).
 */
const UPGRADES = [
  'WorkstreamSummaryMemories1763701500000',
  'AssetTagsOrder1763701400000',
  'AssetEnrichments1763701300000',
  'SearchStaging1763701200000',
  'SearchWriteStatement1763701100000',
  'SearchVocabLength1763701000000',
];

describe('schema upgrade of the search index (SQLite)', () => {
  let before: TestServer;
  let after: TestServer;
  const ids: Record<string, string> = {};

  async function create(server: TestServer, raw: string, metadata: Record<string, unknown> = {}): Promise<string> {
    const res = await http(server.baseUrl, 'POST', '/assets/create', textSeed(raw, metadata));
    expect(res.status).toBe(200);
    return res.json.id;
  }

  const found = async (query?: string, tags?: string): Promise<string[]> =>
    (await new AssetsApi(after.sdk).searchAssets({ query, searchableTags: tags })).iterable.map((s) => s.identifier);

  beforeAll(async () => {
    before = await startTestServer();
    // Named and described by its client: nothing of it is generated, so only the index says where its words are.
    ids.ledger = await create(before, 'const reconciliationLedger = openLedger(accountingPeriod);', {
      name: 'Ledger',
      annotations: [{ type: 'DESCRIPTION', text: 'Opens the books of a period' }],
      tags: [{ text: 'finance' }],
    });
    ids.parser = await create(before, 'def parse_configuration_file(path):\n    return toml.load(path)\n');
    ids.joined = await create(before, 'def rows_to_list(handle):\n    return list(handle)\n');
    // A memory (workstream summary) saved before: its name comes through the upgrade (its other columns are newer).
    const memory = await http(before.baseUrl, 'POST', '/workstream_summaries/create', {
      name: 'Quarterly close checklist',
      model: {
        id: '7a0e5c1e-5d6b-4c51-9a3e-70b0e5000009',
        version: '1',
        created: { value: '2026-01-01T00:00:00.000Z' },
        name: 'm',
        cloud: false,
        type: 'UNKNOWN',
        usage: 'UNKNOWN',
      },
      annotations: [{ type: 'SUMMARY', text: 'Close the books.' }],
    });
    expect(memory.status).toBe(200);
    ids.memory = memory.json.id;
    // Undone on a connection of its own once the app is closed (no part of the app uses a table meanwhile).
    const options = before.app.get(DataSource).options;
    await before.app.close(); // the data directory stays for the next boot
    const dataSource = await new DataSource({ ...options, migrationsRun: false } as DataSourceOptions).initialize();
    // An index written by an older analysis: the asset's text says `valuestodict`, its index still
    // holds what an analysis that never split joined words would have (here: the text it had).
    await dataSource.query(`UPDATE formats SET raw = ? WHERE asset_id = ?`, [
      'def valuestodict(handle):\n    return dict(handle)\n',
      ids.joined,
    ]);
    const undone: string[] = [];
    while (!undone.includes(UPGRADES[UPGRADES.length - 1])) {
      const [{ name: last }] = await dataSource.query(`SELECT name FROM migrations ORDER BY timestamp DESC LIMIT 1`);
      undone.push(last);
      await dataSource.undoLastMigration({ transaction: 'each' });
    }
    await dataSource.destroy();
    expect(undone.filter((name) => UPGRADES.includes(name))).toEqual(UPGRADES);
    after = await startTestServer({}, { shareWith: before });
    // the re-indexing (an older analysis wrote the index) runs in the background once it serves
    await searchReindexed(after, ANALYSIS_VERSION);
  });

  afterAll(async () => {
    await after?.close();
    rmSync(before.config.dataDir, { recursive: true, force: true });
  });

  it('undid the migrations (earlier shape) and applied them again at boot (current shape), keeping every row', async () => {
    const applied = (await after.sql<{ name: string }>(`SELECT name FROM migrations`)).map((m) => m.name);
    expect(applied).toEqual(expect.arrayContaining(UPGRADES));
    const [vocab] = await after.sql<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE name = 'search_vocab'`);
    expect(vocab.sql).toContain('WITHOUT ROWID');
    const terms = await after.sql<{ term: string; rev: string; len: number }>(
      `SELECT term, rev, len FROM search_vocab`,
    );
    expect(terms.map((t) => t.term)).toEqual(
      expect.arrayContaining(['reconciliationledger', 'accountingperiod', 'parse_configuration_file']),
    );
    for (const t of terms) {
      expect(t.rev).toBe([...t.term].reverse().join(''));
      expect(Number(t.len)).toBe([...t.term].length);
    }
    expect(
      await after.sql(
        `SELECT name FROM sqlite_master WHERE name IN ('search_input', 'search_input_write', 'search_staged', 'search_staged_flush', 'search_staged_flush_write')`,
      ),
    ).toHaveLength(5);
  });

  it('re-indexes every asset after boot when an older analysis wrote the index, and records the version', async () => {
    expect(await found('values dict')).toEqual([ids.joined]);
    expect(await found('valuestodict')).toEqual([ids.joined]);
    expect(await after.sql(`SELECT version FROM search_analysis`)).toEqual([{ version: ANALYSIS_VERSION }]);
    expect(await after.sql(`SELECT doc_id FROM search_documents`)).toHaveLength(3);
    expect(await after.sql(`SELECT asset_id FROM search_vectors`)).toHaveLength(3); // the dense index's vectors, which the old store had not
  });

  it('finds what was indexed before the upgrade: words, typos, substrings and tags', async () => {
    expect(await found('reconciliationLedger')).toEqual([ids.ledger]);
    expect(await found('reconcilationLedger')).toEqual([ids.ledger]); // a typo, corrected from the carried vocabulary
    expect(await found('configurat')).toEqual([ids.parser]); // a substring
    expect(await found(undefined, 'finance')).toEqual([ids.ledger]);
  });

  it('reindexes an asset written before the upgrade through the new write path, replacing its old rows', async () => {
    const current = await http(after.baseUrl, 'GET', `/asset/${ids.ledger}`);
    const edited = current.json;
    edited.formats.iterable[0].fragment.string.raw = 'const settlementJournal = openJournal(closingPeriod);';
    edited.tags = { iterable: [{ text: 'accounting' }] };
    expect((await http(after.baseUrl, 'POST', '/asset/update', edited)).status).toBe(200);
    expect(await found('settlementJournal')).toEqual([ids.ledger]);
    expect(await found('reconciliationLedger')).toEqual([]);
    expect(await found(undefined, 'accounting')).toEqual([ids.ledger]);
    expect(await found(undefined, 'finance')).toEqual([]);
    expect(await after.sql(`SELECT doc_id FROM search_documents WHERE asset_id = ?`, [ids.ledger])).toHaveLength(1);
    expect(await after.sql(`SELECT doc_id FROM search_staged`)).toEqual([]); // moved into the index by the COMMIT
  });

  it('keeps a workstream summary saved before (its name), indexed for search', async () => {
    const read = await http(after.baseUrl, 'GET', `/workstream_summary/${ids.memory}`);
    expect(read.status).toBe(200);
    expect(read.json.name).toBe('Quarterly close checklist');
    const hits = await http(after.baseUrl, 'POST', '/workstream_summaries/search', {
      engines: { iterable: [{ query: 'quarterly checklist' }] },
    });
    expect(hits.json.iterable.map((h: { identifier: string }) => h.identifier)).toEqual([ids.memory]);
    // The time it is about is its creation; it has its content hash (the upgrade's text is empty: its column is newer).
    expect(read.json.ranges.iterable[0].reference.from.value).toBe(read.json.created.value);
    const [row] = await after.sql<{ about_at: string; created_at: string; content_hash: string | null }>(
      `SELECT about_at, created_at, content_hash FROM workstream_summaries WHERE id = ?`,
      [ids.memory],
    );
    expect(row.about_at).toBe(row.created_at);
    expect(row.content_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('indexes an asset created after the upgrade', async () => {
    ids.fresh = await create(after, 'fn checksum_manifest(entries: &[Entry]) -> u64 { entries.len() as u64 }');
    expect(await found('checksum_manifest')).toEqual([ids.fresh]);
    expect(await found('checksum_manifst')).toEqual([ids.fresh]);
  });
});
