import { IntelligenceModule } from '../intelligence/intelligence.module';
import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module';
import { SystemModule } from '../system/system.module';
import { AssetController } from './asset.controller';
import { AssetEnrichment } from './asset-enrichment';
import { AssetProjections, AssetUnitOfWork } from './asset-unit-of-work';
import { AssetReader } from './asset.reader';
import { FormatClassifier } from './format-classifier';
import { ModelEnrichment } from './model-enrichment';
import { AssetWriter } from './asset.writer';
import { AssetsController } from './assets.controller';
import { ChangeAssetLinkHandler } from './commands/change-asset-link.command';
import { CreateAssetHandler } from './commands/create-asset.command';
import { CreateWorkstreamSummaryHandler } from './commands/create-workstream-summary.command';
import { DeleteAssetHandler } from './commands/delete-asset.command';
import { DeleteWorkstreamSummaryHandler } from './commands/delete-workstream-summary.command';
import { IncrementAssetScoresHandler } from './commands/increment-asset-scores.command';
import { ReclassifyAssetHandler } from './commands/reclassify-asset.command';
import { UpdateAssetHandler } from './commands/update-asset.command';
import { UpdateFormatValueHandler } from './commands/update-format-value.command';
import { FormatController } from './format.controller';
import { RecordAssetActivityHandler } from './events/asset-activity.event';
import { DraftSeedHandler } from './queries/draft-seed.query';
import { ExportAssetHandler } from './queries/export-asset.query';
import { ExportWorkstreamSummaryHandler } from './queries/export-workstream-summary.query';
import { GetAssetFormatsHandler } from './queries/get-asset-formats.query';
import { GetAssetHandler } from './queries/get-asset.query';
import { GetFormatHandler } from './queries/get-format.query';
import { GetWorkstreamSummaryHandler } from './queries/get-workstream-summary.query';
import { ListAssetActivitiesHandler } from './queries/list-asset-activities.query';
import { ListAssetIdentifiersHandler } from './queries/list-asset-identifiers.query';
import { ListAssetsHandler } from './queries/list-assets.query';
import { ListPseudoAssetsHandler } from './queries/list-pseudo-assets.query';
import { ListWorkstreamSummariesHandler } from './queries/list-workstream-summaries.query';
import { SearchWorkstreamSummariesHandler } from './queries/search-workstream-summaries.query';
import { WorkstreamSummaryUnitOfWork } from './workstream-summary-unit-of-work';
import { WorkstreamSummaryController } from './workstream-summary.controller';
import { WorkstreamSummaryReader } from './workstream-summary.reader';
import { MemoryVectorSearch } from './memory-vector-search';
import { WorkstreamSummaryWriter } from './workstream-summary.writer';
import { WorkstreamSummariesController } from './workstream-summaries.controller';
import { ActivitiesController } from './activities.controller';
import { ChangeAssetAnnotationHandler } from './commands/change-asset-annotation.command';
import { CreateActivityHandler } from './commands/create-activity.command';
import { CreateLinkRecordHandler } from './commands/create-link-record.command';
import { DeleteActivityHandler } from './commands/delete-activity.command';
import { DeleteLinkRecordHandler } from './commands/delete-link-record.command';
import { UpdateLinkRecordHandler } from './commands/update-link-record.command';
import { FindLinkRecordHandler } from './queries/find-link-record.query';
import { GetActivityHandler } from './queries/get-activity.query';
import { GetLinkRecordHandler } from './queries/get-link-record.query';
import { ListActivitiesHandler } from './queries/list-activities.query';
import { ListLinkRecordsHandler } from './queries/list-link-records.query';
import { SearchLinkRecordsHandler } from './queries/search-link-records.query';
import { RecordsReader } from './records.reader';
import { TagsController } from './tags.controller';
import { AbsentRecordsController } from './absent-records.controller';
import { ReclassifyFormatHandler } from './commands/reclassify-format.command';
import { ListFormatsHandler } from './queries/list-formats.query';
import { SensitivesController } from './sensitives.controller';
import { AssetSecrets } from './sensitives/asset-secrets';
import { SensitiveRecords } from './sensitives/sensitive-records';

const commandHandlers = [
  CreateAssetHandler,
  UpdateAssetHandler,
  DeleteAssetHandler,
  ChangeAssetLinkHandler,
  ReclassifyAssetHandler,
  IncrementAssetScoresHandler,
  UpdateFormatValueHandler,
  CreateWorkstreamSummaryHandler,
  DeleteWorkstreamSummaryHandler,
  CreateLinkRecordHandler,
  UpdateLinkRecordHandler,
  DeleteLinkRecordHandler,
  ChangeAssetAnnotationHandler,
  CreateActivityHandler,
  DeleteActivityHandler,
  ReclassifyFormatHandler,
];
const queryHandlers = [
  GetAssetHandler,
  GetAssetFormatsHandler,
  ListAssetsHandler,
  ListAssetIdentifiersHandler,
  ListPseudoAssetsHandler,
  DraftSeedHandler,
  ExportAssetHandler,
  ListAssetActivitiesHandler,
  GetFormatHandler,
  ListWorkstreamSummariesHandler,
  GetWorkstreamSummaryHandler,
  SearchWorkstreamSummariesHandler,
  ExportWorkstreamSummaryHandler,
  ListLinkRecordsHandler,
  GetLinkRecordHandler,
  FindLinkRecordHandler,
  SearchLinkRecordsHandler,
  ListActivitiesHandler,
  GetActivityHandler,
  ListFormatsHandler,
];
const eventHandlers = [RecordAssetActivityHandler];

@Module({
  imports: [EventsModule, SystemModule, IntelligenceModule],
  controllers: [
    AssetsController,
    AssetController,
    FormatController,
    WorkstreamSummariesController,
    WorkstreamSummaryController,
    TagsController,
    ActivitiesController,
    AbsentRecordsController,
    SensitivesController,
  ],
  providers: [
    AssetReader,
    RecordsReader,
    AssetWriter,
    AssetUnitOfWork,
    AssetProjections,
    WorkstreamSummaryReader,
    MemoryVectorSearch,
    WorkstreamSummaryWriter,
    WorkstreamSummaryUnitOfWork,
    AssetEnrichment,
    ModelEnrichment,
    FormatClassifier,
    AssetSecrets,
    SensitiveRecords,
    ...commandHandlers,
    ...queryHandlers,
    ...eventHandlers,
  ],
  exports: [
    AssetReader,
    RecordsReader,
    AssetSecrets,
    AssetProjections,
    WorkstreamSummaryReader,
    MemoryVectorSearch,
    FormatClassifier,
    ModelEnrichment,
    RecordAssetActivityHandler,
  ],
})
export class AssetsModule {}
