import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { EntityManager, ObjectLiteral } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { SearchIndex } from '../../search/search-index.service';
import { AssetReader } from '../asset.reader';
import { AssetEntity } from '../asset.entity';
import { ActivityKind, AssetActivityEvent } from '../events/asset-activity.event';
import { AssetChangedEvent } from '../events/asset-changed.event';
import { AssetTagEntity, TagEntity } from '../tag.entity';
import { AssetWebsiteEntity, WebsiteEntity } from '../website.entity';
import { AssetWorkstreamSummaryEntity, WorkstreamSummaryEntity } from '../workstream-summary.entity';

export type AssetLinkKind = 'tag' | 'website' | 'workstream_summary';

interface LinkSpec {
  /** "tag", "website", "workstream summary": for messages. */
  label: string;
  target: new () => ObjectLiteral;
  join: new () => ObjectLiteral;
  /** The join row's property holding the target id. */
  column: string;
  added: ActivityKind;
  removed: ActivityKind;
  /** Key of the activity metadata naming the target. */
  metadataKey: string;
}

const LINKS: Record<AssetLinkKind, LinkSpec> = {
  tag: { label: 'tag', target: TagEntity, join: AssetTagEntity, column: 'tagId', added: 'tag_added', removed: 'tag_removed', metadataKey: 'tag' },
  website: {
    label: 'website', target: WebsiteEntity, join: AssetWebsiteEntity, column: 'websiteId', added: 'website_added', removed: 'website_removed', metadataKey: 'website',
  },
  workstream_summary: {
    label: 'workstream summary', target: WorkstreamSummaryEntity, join: AssetWorkstreamSummaryEntity, column: 'workstreamSummaryId',
    added: 'summary_added', removed: 'summary_removed', metadataKey: 'workstream_summary',
  },
};

/**
 * Associates (`link` true) or disassociates an asset and a tag / website / workstream summary:
 * one join row, written with both records' `updated` in one transaction. Idempotent: linking
 * twice or unlinking what is not linked changes nothing and succeeds. 404 for an unknown
 * asset or target, 410 for a deleted asset.
 */
export class ChangeAssetLinkCommand extends Command<void> {
  constructor(
    readonly assetId: string,
    readonly kind: AssetLinkKind,
    readonly targetId: string,
    readonly link: boolean,
  ) {
    super();
  }
}

@CommandHandler(ChangeAssetLinkCommand)
export class ChangeAssetLinkHandler implements ICommandHandler<ChangeAssetLinkCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly search: SearchIndex,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ assetId, kind, targetId, link }: ChangeAssetLinkCommand): Promise<void> {
    const spec = LINKS[kind];
    const changed = await this.db.transaction(async (em) => {
      await this.reader.require(em, assetId);
      if (!(await em.exists(spec.target, { where: { id: targetId } }))) {
        throw new NotFoundException(`${spec.label} ${targetId} not found`);
      }
      const where = { assetId, [spec.column]: targetId };
      const linked = await em.exists(spec.join, { where });
      if (linked === link) return false;
      const now = nowIso();
      if (link) await this.insertLink(em, spec, { ...where, createdAt: now });
      else await em.delete(spec.join, where);
      await em.update(AssetEntity, { id: assetId }, { updatedAt: now });
      await em.update(spec.target, { id: targetId }, { updatedAt: now });
      await this.search.reindex(em, assetId);
      await this.outbox.append(em, 'assets', assetId);
      return true;
    });
    if (!changed) return;
    this.events.publish(new AssetChangedEvent(assetId, 'updated'));
    this.events.publish(new AssetActivityEvent(assetId, link ? spec.added : spec.removed, { [spec.metadataKey]: targetId }));
  }

  /** Two concurrent identical links: the second insert is a no-op, not a key violation. */
  private async insertLink(em: EntityManager, spec: LinkSpec, row: ObjectLiteral): Promise<void> {
    await em.createQueryBuilder().insert().into(spec.join).values(row).orIgnore().execute();
  }
}
