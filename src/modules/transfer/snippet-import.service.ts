import { Injectable } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { nowIso } from '../../common/wire/common.wire';
import { LanguageDetector } from '../intelligence/language-detector.service';
import { ApplicationRegistry } from '../system/application.registry';
import { LocalUser } from '../system/local-user';
import { ImportRuns, ImportSummary } from './import-runs';
import { recordOf } from './ndjson';
import { ConvertedSnippets, SnippetContext, massCodeSnippets, vsCodeSnippets } from './snippet-files';
import { TransferStore } from './transfer.store';

/** Imports other tools' snippet files (VS Code, massCode) as new snippets, as an NDJSON import writes records. */
@Injectable()
export class SnippetImport {
  constructor(
    private readonly db: Database,
    private readonly store: TransferStore,
    private readonly runs: ImportRuns,
    private readonly applications: ApplicationRegistry,
    private readonly user: LocalUser,
    private readonly detector: LanguageDetector,
  ) {}

  /**
   * Imports VS Code snippet files (`{name, text}`: the file's name, for its language and the
   * snippets' ids, and its JSON-with-comments text); see snippet-files.ts.
   */
  async importVsCode(files: Array<{ name: string; text: string }>): Promise<ImportSummary> {
    return this.importSnippets('vscode', (context) => vsCodeSnippets(files, context));
  }

  /** Imports massCode's `db.json` (massCode 2 and 3); see snippet-files.ts. */
  async importMassCode(dbJsonText: string): Promise<ImportSummary> {
    return this.importSnippets('masscode', (context) => massCodeSnippets(dbJsonText, context));
  }

  private async importSnippets(
    format: 'vscode' | 'masscode',
    convert: (context: SnippetContext) => ConvertedSnippets,
  ): Promise<ImportSummary> {
    const applicationId = await this.db.transaction((em) => this.applications.resolveId(em));
    const { records, skipped } = convert({
      applicationId,
      creator: this.user.id,
      now: nowIso,
      detect: (text) => this.detector.detectSync(text),
    });
    const schema = this.store.schema;
    // Checked and completed (omitted columns take their defaults) as an NDJSON record would be.
    records.forEach((line, i) => recordOf(line, i + 1, schema));
    return this.runs.exclusive(async (importer) => {
      if (skipped) importer.skip('asset', skipped);
      for (const line of records) await importer.add(line);
      await importer.finish();
      return { format, records: importer.done, ...importer.tally };
    });
  }
}
