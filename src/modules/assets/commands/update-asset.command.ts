import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { LanguageDetector } from '../../intelligence/language-detector.service';
import { SearchIndex } from '../../search/search-index.service';
import { AssetReader } from '../asset.reader';
import { textOf } from '../asset-text';
import { AssetWriter } from '../asset.writer';
import { AssetEntity } from '../asset.entity';
import { AssetDto } from '../dto/asset.dto';
import { AssetActivityEvent } from '../events/asset-activity.event';
import { AssetChangedEvent } from '../events/asset-changed.event';
import { FormatEntity } from '../format.entity';
import { AssetWire, assetWire } from '../wire/asset.wire';

/** Applies a round-tripped Asset: name, mechanism, favorited, pseudo, format text, annotations, tags, websites. */
export class UpdateAssetCommand extends Command<AssetWire> {
  constructor(
    readonly asset: AssetDto | undefined,
    readonly transferables: boolean,
  ) {
    super();
  }
}

@CommandHandler(UpdateAssetCommand)
export class UpdateAssetHandler implements ICommandHandler<UpdateAssetCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly detector: LanguageDetector,
    private readonly search: SearchIndex,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ asset: dto, transferables }: UpdateAssetCommand): Promise<AssetWire> {
    if (!dto) throw new BadRequestException('an Asset body is required');
    const edits = new Map<string, { text?: string; generic?: string; specific?: string }>();
    for (const format of dto.formats?.iterable ?? []) {
      const text = textOf(format.fragment?.string);
      if (text?.includes('\u0000')) throw new BadRequestException('asset text must not contain NUL characters');
      edits.set(format.id, { text, generic: format.classification?.generic, specific: format.classification?.specific });
    }

    // Detection runs outside the transaction: it may take milliseconds, writers should not wait on it.
    const current = await this.db.read((em) => this.reader.one(em, dto.id));
    const classified = new Map<string, { generic: string; specific: string }>();
    for (const format of current.formats) {
      const edit = edits.get(format.id);
      if (edit?.text === undefined || edit.text === format.raw) continue;
      const explicit = edit.specific && edit.specific !== format.specific;
      classified.set(
        format.id,
        explicit ? { generic: edit.generic ?? format.generic, specific: edit.specific! } : await this.detector.detect(edit.text),
      );
    }

    const updated = await this.db.transaction(async (em) => {
      const asset = await this.reader.require(em, dto.id);
      const now = nowIso();
      const changes: Partial<AssetEntity> = { updatedAt: now };
      if (dto.name !== undefined) changes.name = dto.name.trim() || null;
      if (dto.mechanism !== undefined) changes.mechanism = dto.mechanism;
      if (dto.favorited !== undefined) changes.favorited = dto.favorited;
      if (dto.pseudo !== undefined) changes.pseudo = dto.pseudo;
      await em.update(AssetEntity, { id: asset.id }, changes);

      const formats = await em.find(FormatEntity, { where: { assetId: asset.id } });
      for (const format of formats) {
        const edit = edits.get(format.id);
        if (!edit) continue;
        const patch: Partial<FormatEntity> = {};
        if (edit.text !== undefined && edit.text !== format.raw) {
          const classification = classified.get(format.id) ?? (await this.detector.detect(edit.text));
          Object.assign(patch, { raw: edit.text, bytes: Buffer.byteLength(edit.text, 'utf8'), ...classification });
        } else if (edit.specific && edit.specific !== format.specific) {
          Object.assign(patch, { specific: edit.specific, generic: edit.generic ?? format.generic });
        }
        if (Object.keys(patch).length) await em.update(FormatEntity, { id: format.id }, { ...patch, updatedAt: now });
      }
      if (dto.annotations) await this.writer.setAnnotations(em, asset.id, dto.annotations.iterable);
      if (dto.tags) await this.writer.setTags(em, asset.id, dto.tags.iterable);
      if (dto.websites) await this.writer.setWebsites(em, asset.id, dto.websites.iterable);
      const aggregate = await this.reader.one(em, asset.id);
      await this.search.index(em, aggregate);
      const wire = assetWire(aggregate, transferables);
      await this.outbox.append(em, 'assets', asset.id);
      return wire;
    });
    this.events.publish(new AssetChangedEvent(dto.id, 'updated'));
    this.events.publish(new AssetActivityEvent(dto.id, 'updated'));
    return updated;
  }
}
