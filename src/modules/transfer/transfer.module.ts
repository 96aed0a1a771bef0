import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module';
import { AssetsModule } from '../assets/assets.module';
import { IntelligenceModule } from '../intelligence/intelligence.module';
import { SearchModule } from '../search/search.module';
import { SystemModule } from '../system/system.module';
import { ImportStoreHandler } from './commands/import-store.command';
import { ExportPages } from './export-pages';
import { ImportRuns } from './import-runs';
import { ImportUnitOfWork } from './import-unit-of-work';
import { MarkdownExport } from './markdown-export.service';
import { SnippetImport } from './snippet-import.service';
import { StoreExport } from './store-export.service';
import { StoreImport } from './store-import.service';
import { ExportStoreHandler } from './queries/export-store.query';
import { TransferController } from './transfer.controller';
import { TransferStore } from './transfer.store';
import { UploadParser } from './upload';

/**
 * Whole-store export and import (docs/TRANSFER.md): NDJSON export and import of every record
 * kind (StoreExport, StoreImport), Markdown export (MarkdownExport), VS Code and massCode snippet
 * import (SnippetImport); the `trove` command line calls these services too. The search module is imported so that its index (an asset
 * projection) is registered wherever this module runs: imported assets are indexed.
 */
@Module({
  imports: [EventsModule, SystemModule, IntelligenceModule, AssetsModule, SearchModule],
  controllers: [TransferController],
  providers: [
    TransferStore,
    ExportPages,
    StoreExport,
    MarkdownExport,
    ImportRuns,
    StoreImport,
    SnippetImport,
    ImportUnitOfWork,
    UploadParser,
    ImportStoreHandler,
    ExportStoreHandler,
  ],
  exports: [StoreExport, MarkdownExport, StoreImport, SnippetImport],
})
export class TransferModule {}
