import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFound } from '../../../common/errors/domain-errors';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { AssetReader } from '../asset.reader';
import { AssetLinkKind, AssetWriter } from '../asset.writer';
import { ActivityKind } from '../events/asset-activity.event';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';

export type { AssetLinkKind } from '../asset.writer';

interface LinkSpec {
  /** "tag", "website", "workstream summary": for messages. */
  label: string;
  added: ActivityKind;
  removed: ActivityKind;
  /** Key of the activity metadata naming the target. */
  metadataKey: string;
}

const LINKS: Record<AssetLinkKind, LinkSpec> = {
  tag: { label: 'tag', added: 'tag_added', removed: 'tag_removed', metadataKey: 'tag' },
  website: { label: 'website', added: 'website_added', removed: 'website_removed', metadataKey: 'website' },
  workstream_summary: {
    label: 'workstream summary',
    added: 'summary_added',
    removed: 'summary_removed',
    metadataKey: 'workstream_summary',
  },
};

/**
 * Associates (`link` true) or disassociates an asset and a tag / website / workstream summary:
 * one join row, written with both records' `updated` in one transaction. Idempotent: linking
 * twice or unlinking what is not linked changes nothing and succeeds. 404 for an unknown
 * asset or target, 410 for a deleted asset (or a deleted workstream summary to link).
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
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
    private readonly summaries: WorkstreamSummaryReader,
  ) {}

  async execute({ assetId, kind, targetId, link }: ChangeAssetLinkCommand): Promise<void> {
    const spec = LINKS[kind];
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, assetId);
      if (!(await this.reader.linkTargetExists(em, kind, targetId)))
        throw new NotFound(`${spec.label} ${targetId} not found`);
      if (kind === 'workstream_summary' && link) await this.summaries.require(em, targetId);
      if (await this.writer.changeLink(em, kind, assetId, targetId, link)) {
        changed({
          id: assetId,
          change: 'updated',
          activity: { kind: link ? spec.added : spec.removed, metadata: { [spec.metadataKey]: targetId } },
          ...(kind === 'workstream_summary' ? { summaries: [targetId] } : {}),
        });
      }
    });
  }
}
