import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isUUID } from 'class-validator';
import { Conflict, InvalidInput } from '../../../common/errors/domain-errors';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { normaliseTag, normaliseUrl } from '../asset-text';
import { AssetWriter } from '../asset.writer';
import { TagUpdateDto, WebsiteUpdateDto } from '../dto/records.dto';
import { LinkRecordKind, RecordsReader } from '../records.reader';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { TagRecordWire, WebsiteRecordWire, tagRecordWire, websiteRecordWire } from '../wire/records.wire';

/**
 * POST /tag/update, POST /website/update: the round-tripped record's text and category (a tag),
 * URL and name (a website). Every live asset linked to it is re-indexed and announced (an asset
 * shows its tags and websites, and is searched by them). 404 unknown; 409 when another record
 * already has the new text or URL (Trove keeps one per text, per URL).
 */
export class UpdateLinkRecordCommand extends Command<TagRecordWire | WebsiteRecordWire> {
  constructor(
    readonly kind: LinkRecordKind,
    readonly record: TagUpdateDto | WebsiteUpdateDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(UpdateLinkRecordCommand)
export class UpdateLinkRecordHandler implements ICommandHandler<UpdateLinkRecordCommand> {
  constructor(
    private readonly records: RecordsReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async execute({ kind, record: dto }: UpdateLinkRecordCommand): Promise<TagRecordWire | WebsiteRecordWire> {
    if (!dto) throw new InvalidInput(`a ${kind === 'tag' ? 'Tag' : 'Website'} body is required`);
    if (!dto.id || !isUUID(dto.id)) throw new InvalidInput(`id must be the UUID of a ${kind}`);
    const patch: Partial<TagEntity> | Partial<WebsiteEntity> =
      kind === 'tag'
        ? {
            text: normaliseTag((dto as TagUpdateDto).text),
            ...((dto as TagUpdateDto).category ? { category: (dto as TagUpdateDto).category } : {}),
          }
        : (() => {
            const url = normaliseUrl((dto as WebsiteUpdateDto).url);
            return { url, name: (dto as WebsiteUpdateDto).name.trim() || new URL(url).hostname };
          })();
    const key = kind === 'tag' ? (patch as TagEntity).text : (patch as WebsiteEntity).url;
    return this.uow.run(async ({ em, changed }) => {
      const current = await this.records.require(em, kind, dto.id!);
      const same = Object.entries(patch).every(
        ([field, value]) => (current as unknown as Record<string, unknown>)[field] === value,
      );
      if (!same) {
        const other = await this.records.byKey(em, kind, key);
        if (other && other.id !== current.id)
          throw new Conflict(`${kind} ${other.id} already has the ${kind === 'tag' ? 'text' : 'URL'} "${key}"`);
        await this.writer.updateLinkRecord(em, kind, current.id, patch);
      }
      const assetIds = (await this.records.linkedAssets(em, kind, [current.id])).get(current.id) ?? [];
      if (!same) {
        await this.writer.touchAssets(em, assetIds);
        for (const id of assetIds) changed({ id, change: 'updated' });
      }
      const updated = await this.records.require(em, kind, current.id);
      return kind === 'tag'
        ? tagRecordWire(updated as TagEntity, assetIds)
        : websiteRecordWire(updated as WebsiteEntity, assetIds);
    });
  }
}
