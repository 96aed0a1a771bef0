import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { ClassificationGenericEnum, ClassificationSpecificEnum } from '../../../common/wire/enums';
import { TEXT_CODES } from '../../intelligence/language/languages';
import { AssetEnrichment } from '../asset-enrichment';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import { AssetReclassificationDto } from '../dto/asset-reclassification.dto';
import { ModelEnrichment } from '../model-enrichment';
import { AssetWire, assetWire } from '../wire/asset.wire';

/** Codes that name binary content (images, media, office documents, archives, executables): text cannot be relabelled to them. */
const BINARY_CODES: ReadonlySet<string> = new Set([
  'UNKNOWN',
  'doc',
  'docm',
  'docx',
  'exe',
  'gif',
  'ico',
  'jpe',
  'jpeg',
  'jpg',
  'jpgm',
  'jpgv',
  'mp2',
  'mp2a',
  'mp3',
  'mp4',
  'mp4a',
  'oga',
  'ogg',
  'ogv',
  'ogx',
  'ppt',
  'pptx',
  'pptm',
  'qt',
  'tif',
  'tiff',
  'wav',
  'weba',
  'webm',
  'webp',
  'xla',
  'xlam',
  'xlc',
  'xlm',
  'xls',
  'xlsb',
  'xlsm',
  'xlsx',
  'xlt',
  'xltm',
  'xltx',
  'pdf',
  'png',
  'rpm',
  'zip',
  'woff',
  'woff2',
  'svgz',
  'bin',
  'bmp',
  'eot',
  'gz',
  'jar',
  'mpkg',
  'ai',
  'eps',
  'dmg',
  'pyc',
  'class',
  'wasm',
]);
/** Codes whose text is a reference to something else (a URL, a path). */
const REFERENCE_CODES: ReadonlySet<string> = new Set([
  'uniform_resource_locator',
  'custom_url_scheme',
  'unix_file_path',
  'windows_file_path',
  'uniform_resource_identifier',
]);
/** Prose-like codes (as the language detector labels them, plus plain-text variants): TEXT, not CODE. */
const PROSE_CODES: ReadonlySet<string> = new Set<string>([...TEXT_CODES, 'text', 'log', 'csv']);
/** Formats holding text; the others (IMAGE, VIDEO, FILE) keep their label. */
const TEXT_GENERICS: ReadonlySet<string> = new Set(['CODE', 'TEXT', 'UNKNOWN', 'EXTERNAL_RESOURCE_REFERENCE']);

function genericOf(code: ClassificationSpecificEnum): ClassificationGenericEnum {
  if (PROSE_CODES.has(code)) return 'TEXT';
  if (REFERENCE_CODES.has(code)) return 'EXTERNAL_RESOURCE_REFERENCE';
  return 'CODE';
}

/**
 * Relabels every text format of the asset to the given language (only the format `formatId`
 * when given: POST /format/reclassify); answers the whole asset.
 */
export class ReclassifyAssetCommand extends Command<AssetWire> {
  constructor(
    readonly input: AssetReclassificationDto | undefined,
    readonly transferables: boolean,
    readonly formatId?: string,
  ) {
    super();
  }
}

@CommandHandler(ReclassifyAssetCommand)
export class ReclassifyAssetHandler implements ICommandHandler<ReclassifyAssetCommand> {
  constructor(
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly enrichment: AssetEnrichment,
    private readonly modelEnrichment: ModelEnrichment,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async execute({ input, transferables, formatId }: ReclassifyAssetCommand): Promise<AssetWire> {
    if (!input?.ext || !input.asset) throw new InvalidInput('an AssetReclassification body {ext, asset} is required');
    const { ext } = input;
    if (BINARY_CODES.has(ext))
      throw new InvalidInput(`ext ${ext} is not a text language; a text asset cannot be reclassified to it`);
    const current = { generic: genericOf(ext), specific: ext };
    const assetId = input.asset.id;

    let followed = false;
    const answer = await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, assetId);
      const formats = (await this.reader.formats(em, assetId)).filter((f) => !formatId || f.id === formatId);
      if (formatId && formats.length === 0)
        throw new InvalidInput(`format ${formatId} is not a format of asset ${assetId}`);
      const relabelled = formats.filter(
        (f) => TEXT_GENERICS.has(f.generic) && (f.generic !== current.generic || f.specific !== current.specific),
      );
      if (relabelled.length === 0) return assetWire(await this.reader.one(em, assetId), transferables);
      const now = nowIso();
      for (const format of relabelled) await this.writer.updateFormat(em, format.id, { ...current, updatedAt: now });
      await this.writer.updateAsset(em, assetId, { updatedAt: now });
      // The generated name, description and tags follow the new language (the user's own stay).
      const original = relabelled.find((f) => f.position === 0);
      if (original) await this.enrichment.follow(em, assetId, original.raw, current);
      followed = original !== undefined;
      const aggregate = await this.reader.one(em, assetId);
      const previous = { generic: relabelled[0].generic, specific: relabelled[0].specific };
      changed({
        id: assetId,
        change: 'updated',
        aggregate,
        activity: { kind: 'reclassified', metadata: { previous, current } },
      });
      return assetWire(aggregate, transferables);
    });
    // The model's name, description and tags for the new language, after this answer.
    if (followed) this.modelEnrichment.later(assetId);
    return answer;
  }
}
