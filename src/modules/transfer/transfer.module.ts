import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module';
import { AssetsModule } from '../assets/assets.module';
import { IntelligenceModule } from '../intelligence/intelligence.module';
import { SearchModule } from '../search/search.module';
import { SystemModule } from '../system/system.module';
import { ImportStoreHandler } from './commands/import-store.command';
import { ImportUnitOfWork } from './import-unit-of-work';
import { ExportStoreHandler } from './queries/export-store.query';
import { TransferController } from './transfer.controller';
import { TransferService } from './transfer.service';
import { TransferStore } from './transfer.store';
import { UploadParser } from './upload';

/**
 * Whole-store export and import (docs/TRANSFER.md): NDJSON export and import of every record
 * kind, Markdown export, VS Code and massCode snippet import; TransferService is also what the
 * `trove` command line calls. The search module is imported so that its index (an asset
 * projection) is registered wherever this module runs: imported assets are indexed.
 */
@Module({
  imports: [EventsModule, SystemModule, IntelligenceModule, AssetsModule, SearchModule],
  controllers: [TransferController],
  providers: [TransferService, TransferStore, ImportUnitOfWork, UploadParser, ImportStoreHandler, ExportStoreHandler],
  exports: [TransferService],
})
export class TransferModule {}
