import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { normaliseTag, normaliseUrl } from '../asset-text';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import { SeededTagDto, SeededWebsiteDto } from '../dto/records.dto';
import { LinkRecordKind, RecordsReader } from '../records.reader';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { TagRecordWire, WebsiteRecordWire, tagRecordWire, websiteRecordWire } from '../wire/records.wire';

/**
 * POST /tags/create, POST /websites/create: a tag by its text, a website by its URL. Trove keeps
 * one record per text (per URL), so a seed of one that exists answers it (linked to the seed's
 * asset too), as the official clients expect after `exists`. With `asset` the record is linked to
 * that asset (404 unknown, 410 deleted) and the asset announced. A website's `conversation` is
 * linked by the conversations module (WebsitesController).
 */
export class CreateLinkRecordCommand extends Command<TagRecordWire | WebsiteRecordWire> {
  constructor(
    readonly kind: LinkRecordKind,
    readonly seed: SeededTagDto | SeededWebsiteDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(CreateLinkRecordCommand)
export class CreateLinkRecordHandler implements ICommandHandler<CreateLinkRecordCommand> {
  constructor(
    private readonly assets: AssetReader,
    private readonly records: RecordsReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async execute({ kind, seed }: CreateLinkRecordCommand): Promise<TagRecordWire | WebsiteRecordWire> {
    if (!seed) throw new InvalidInput(`a ${kind === 'tag' ? 'SeededTag' : 'SeededWebsite'} body is required`);
    const row = newRecord(kind, seed);
    const key = kind === 'tag' ? (row as TagEntity).text : (row as WebsiteEntity).url;
    return this.uow.run(async ({ em, changed }) => {
      if (seed.asset) await this.assets.require(em, seed.asset);
      let record = await this.records.byKey(em, kind, key);
      if (!record) {
        await this.writer.insertLinkRecord(em, kind, row);
        record = (await this.records.byKey(em, kind, key))!;
      }
      if (seed.asset && (await this.writer.changeLink(em, kind, seed.asset, record.id, true))) {
        changed({
          id: seed.asset,
          change: 'updated',
          activity: { kind: kind === 'tag' ? 'tag_added' : 'website_added', metadata: { [kind]: record.id } },
        });
      }
      const assetIds = (await this.records.linkedAssets(em, kind, [record.id])).get(record.id) ?? [];
      return kind === 'tag'
        ? tagRecordWire(record as TagEntity, assetIds)
        : websiteRecordWire(record as WebsiteEntity, assetIds);
    });
  }
}

/** The row a seed makes (normalised as an asset's own tags and websites are: a 400 for a blank text or a non-http(s) URL). */
function newRecord(kind: LinkRecordKind, seed: SeededTagDto | SeededWebsiteDto): TagEntity | WebsiteEntity {
  const now = nowIso();
  const mechanism = seed.mechanism ?? 'MANUAL';
  if (kind === 'tag') {
    const tag = seed as SeededTagDto;
    return {
      id: randomUUID(),
      text: normaliseTag(tag.text),
      category: tag.category ?? 'UNKNOWN',
      mechanism,
      createdAt: now,
      updatedAt: now,
    };
  }
  const website = seed as SeededWebsiteDto;
  const url = normaliseUrl(website.url);
  return {
    id: randomUUID(),
    url,
    name: website.name.trim() || new URL(url).hostname,
    mechanism,
    createdAt: now,
    updatedAt: now,
  };
}
