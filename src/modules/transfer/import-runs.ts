import { Injectable } from '@nestjs/common';
import { Mutex } from 'async-mutex';
import { AssetProjections } from '../assets/asset-unit-of-work';
import { ImportUnitOfWork } from './import-unit-of-work';
import { RecordImporter } from './record-importer';
import { TransferStore } from './transfer.store';

/** What an import did. */
export interface ImportSummary {
  format: 'ndjson' | 'vscode' | 'masscode';
  /** Records read (NDJSON: record lines; snippets: the records they became). */
  records: number;
  /** Records created, per kind. */
  created: Record<string, number>;
  /** Records not created, per kind: already in the store (same id or same natural key), referring to a record that is not, or (snippets) not snippets. */
  skipped: Record<string, number>;
}

/**
 * What every import shares: one import runs at a time (an NDJSON file or snippet files), and each
 * writes through a RecordImporter, in batches, each a transaction of whole groups.
 */
@Injectable()
export class ImportRuns {
  private readonly importing = new Mutex();

  constructor(
    private readonly store: TransferStore,
    private readonly uow: ImportUnitOfWork,
    private readonly projections: AssetProjections,
  ) {}

  /** Runs `work` when no other import runs, with an importer that reports each batch to `onBatch`. */
  exclusive<T>(work: (importer: RecordImporter) => Promise<T>, onBatch?: (done: number) => void): Promise<T> {
    return this.importing.runExclusive(() =>
      work(
        new RecordImporter(
          { store: this.store, schema: this.store.schema, uow: this.uow, projections: this.projections },
          onBatch,
        ),
      ),
    );
  }
}
