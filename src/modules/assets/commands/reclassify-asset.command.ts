import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { ClassificationGenericEnum, ClassificationSpecificEnum } from '../../../common/wire/enums';
import { TEXT_CODES } from '../../intelligence/language/languages';
import { SearchIndex } from '../../search/search-index.service';
import { AssetReader } from '../asset.reader';
import { AssetEntity } from '../asset.entity';
import { AssetReclassificationDto } from '../dto/asset-reclassification.dto';
import { AssetActivityEvent } from '../events/asset-activity.event';
import { AssetChangedEvent } from '../events/asset-changed.event';
import { FormatEntity } from '../format.entity';
import { AssetWire, assetWire } from '../wire/asset.wire';

/** Codes that name binary content (images, media, office documents, archives, executables): text cannot be relabelled to them. */
const BINARY_CODES: ReadonlySet<string> = new Set([
  'UNKNOWN', 'doc', 'docm', 'docx', 'exe', 'gif', 'ico', 'jpe', 'jpeg', 'jpg', 'jpgm', 'jpgv', 'mp2', 'mp2a', 'mp3', 'mp4',
  'mp4a', 'oga', 'ogg', 'ogv', 'ogx', 'ppt', 'pptx', 'pptm', 'qt', 'tif', 'tiff', 'wav', 'weba', 'webm', 'webp', 'xla',
  'xlam', 'xlc', 'xlm', 'xls', 'xlsb', 'xlsm', 'xlsx', 'xlt', 'xltm', 'xltx', 'pdf', 'png', 'rpm', 'zip', 'woff', 'woff2',
  'svgz', 'bin', 'bmp', 'eot', 'gz', 'jar', 'mpkg', 'ai', 'eps', 'dmg', 'pyc', 'class', 'wasm',
]);
/** Codes whose text is a reference to something else (a URL, a path). */
const REFERENCE_CODES: ReadonlySet<string> = new Set([
  'uniform_resource_locator', 'custom_url_scheme', 'unix_file_path', 'windows_file_path', 'uniform_resource_identifier',
]);
/** Prose-like codes (as the language detector labels them, plus plain-text variants): TEXT, not CODE. */
const PROSE_CODES: ReadonlySet<string> = new Set<string>([...TEXT_CODES, 'text', 'log', 'csv']);
/** Formats holding text; the others (IMAGE, VIDEO, FILE) keep their label. */
const TEXT_GENERICS: ReadonlySet<string> = new Set(['CODE', 'TEXT', 'UNKNOWN', 'EXTERNAL_RESOURCE_REFERENCE']);

export function genericOf(code: ClassificationSpecificEnum): ClassificationGenericEnum {
  if (PROSE_CODES.has(code)) return 'TEXT';
  if (REFERENCE_CODES.has(code)) return 'EXTERNAL_RESOURCE_REFERENCE';
  return 'CODE';
}

/** Relabels every text format of the asset to the given language; answers the whole asset. */
export class ReclassifyAssetCommand extends Command<AssetWire> {
  constructor(
    readonly input: AssetReclassificationDto | undefined,
    readonly transferables: boolean,
  ) {
    super();
  }
}

@CommandHandler(ReclassifyAssetCommand)
export class ReclassifyAssetHandler implements ICommandHandler<ReclassifyAssetCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly search: SearchIndex,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ input, transferables }: ReclassifyAssetCommand): Promise<AssetWire> {
    if (!input?.ext || !input.asset) throw new BadRequestException('an AssetReclassification body {ext, asset} is required');
    const { ext } = input;
    if (BINARY_CODES.has(ext)) throw new BadRequestException(`ext ${ext} is not a text language; a text asset cannot be reclassified to it`);
    const current = { generic: genericOf(ext), specific: ext };
    const assetId = input.asset.id;

    const { wire, previous } = await this.db.transaction(async (em) => {
      await this.reader.require(em, assetId);
      const formats = await em.find(FormatEntity, { where: { assetId }, order: { position: 'ASC' } });
      const changed = formats.filter((f) => TEXT_GENERICS.has(f.generic) && (f.generic !== current.generic || f.specific !== current.specific));
      const now = nowIso();
      for (const format of changed) await em.update(FormatEntity, { id: format.id }, { ...current, updatedAt: now });
      if (changed.length) await em.update(AssetEntity, { id: assetId }, { updatedAt: now });
      const aggregate = await this.reader.one(em, assetId);
      if (changed.length) await this.search.index(em, aggregate);
      const before = changed[0] ? { generic: changed[0].generic, specific: changed[0].specific } : null;
      const wire = assetWire(aggregate, transferables);
      if (changed.length) await this.outbox.append(em, 'assets', assetId);
      return { wire, previous: before };
    });
    if (previous) {
      this.events.publish(new AssetChangedEvent(assetId, 'updated'));
      this.events.publish(new AssetActivityEvent(assetId, 'reclassified', { previous, current }));
    }
    return wire;
  }
}
