import { IQueryHandler, Query, QueryHandler, EventBus } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { groupedTimestamp } from '../../../common/wire/common.wire';
import { AssetReader } from '../asset.reader';
import { AssetActivityEvent } from '../events/asset-activity.event';
import { ExportType, exportContent, renderHtml, renderMarkdown } from '../export/asset-export';
import { ExportedAssetWire } from '../wire/exported-asset.wire';

/** One asset as a Markdown document or a standalone HTML page; records an `exported` activity. */
export class ExportAssetQuery extends Query<ExportedAssetWire> {
  constructor(
    readonly assetId: string,
    readonly type: ExportType,
  ) {
    super();
  }
}

@QueryHandler(ExportAssetQuery)
export class ExportAssetHandler implements IQueryHandler<ExportAssetQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly events: EventBus,
  ) {}

  async execute({ assetId, type }: ExportAssetQuery): Promise<ExportedAssetWire> {
    const content = exportContent(await this.db.read((em) => this.reader.one(em, assetId)));
    const document = type === 'HTML' ? renderHtml(content) : renderMarkdown(content);
    this.events.publish(new AssetActivityEvent(assetId, 'exported', { type }));
    return {
      name: content.name,
      description: content.description,
      created: groupedTimestamp(content.created),
      raw: { string: { raw: document } },
    };
  }
}
