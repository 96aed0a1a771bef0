import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { LanguageDetector } from '../../intelligence/language-detector.service';
import { AssetEnrichment } from '../asset-enrichment';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { textOf } from '../asset-text';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import { AssetDto } from '../dto/asset.dto';
import { ModelEnrichment } from '../model-enrichment';
import { prepareSecrets } from '../sensitives/secret-detector';
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
    private readonly enrichment: AssetEnrichment,
    private readonly modelEnrichment: ModelEnrichment,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async execute({ asset: dto, transferables }: UpdateAssetCommand): Promise<AssetWire> {
    if (!dto) throw new InvalidInput('an Asset body is required');
    const edits = new Map<string, { text?: string; generic?: string; specific?: string }>();
    for (const format of dto.formats?.iterable ?? []) {
      const text = textOf(format.fragment?.string);
      if (text?.includes('\u0000')) throw new InvalidInput('asset text must not contain NUL characters');
      edits.set(format.id, {
        text,
        generic: format.classification?.generic,
        specific: format.classification?.specific,
      });
    }

    // Detection runs outside the transaction: it may take milliseconds, writers should not wait on it.
    const current = await this.db.read((em) => this.reader.one(em, dto.id));
    const classified = new Map<string, { generic: string; specific: string }>();
    const changedTexts: string[] = [];
    for (const format of current.formats) {
      const edit = edits.get(format.id);
      if (edit?.text === undefined || edit.text === format.raw) continue;
      const explicit = edit.specific && edit.specific !== format.specific;
      classified.set(
        format.id,
        explicit
          ? { generic: edit.generic ?? format.generic, specific: edit.specific! }
          : await this.detector.detect(edit.text),
      );
      changedTexts.push(edit.text);
    }
    // So is the secrets scan of the new texts (the projection that stores it finds it made).
    await prepareSecrets(changedTexts);

    let followed = false;
    const updated = await this.uow.run(async ({ em, changed }) => {
      const asset = await this.reader.require(em, dto.id);
      const now = nowIso();
      const fields: Parameters<AssetWriter['updateAsset']>[2] = { updatedAt: now };
      if (dto.name !== undefined) fields.name = dto.name.trim() || null;
      if (dto.mechanism !== undefined) fields.mechanism = dto.mechanism;
      if (dto.favorited !== undefined) fields.favorited = dto.favorited;
      if (dto.pseudo !== undefined) fields.pseudo = dto.pseudo;
      await this.writer.updateAsset(em, asset.id, fields);

      let original: { text: string; generic: string; specific: string } | null = null;
      for (const format of await this.reader.formats(em, asset.id)) {
        const edit = edits.get(format.id);
        if (!edit) continue;
        const patch: Parameters<AssetWriter['updateFormat']>[2] = {};
        if (edit.text !== undefined && edit.text !== format.raw) {
          const classification = classified.get(format.id) ?? (await this.detector.detect(edit.text));
          Object.assign(patch, { raw: edit.text, bytes: Buffer.byteLength(edit.text, 'utf8'), ...classification });
        } else if (edit.specific && edit.specific !== format.specific) {
          Object.assign(patch, { specific: edit.specific, generic: edit.generic ?? format.generic });
        }
        if (Object.keys(patch).length === 0) continue;
        await this.writer.updateFormat(em, format.id, { ...patch, updatedAt: now });
        if (format.position === 0)
          original = {
            text: patch.raw ?? format.raw,
            generic: patch.generic ?? format.generic,
            specific: patch.specific ?? format.specific,
          };
      }
      if (dto.annotations) await this.writer.setAnnotations(em, asset.id, dto.annotations.iterable);
      if (dto.tags) await this.writer.setTags(em, asset.id, dto.tags.iterable);
      if (dto.websites) await this.writer.setWebsites(em, asset.id, dto.websites.iterable);
      // New content: the generated name, description and tags follow it (the user's own stay).
      if (original) await this.enrichment.follow(em, asset.id, original.text, original);
      followed = original !== null;
      const aggregate = await this.reader.one(em, asset.id);
      changed({ id: asset.id, change: 'updated', aggregate, activity: { kind: 'updated' } });
      return aggregate;
    });
    // ... and the model's, after this answer, for the parts still generated.
    if (followed) this.modelEnrichment.later(dto.id);
    // Made after the unit of work's projections ran: they bring the sensitives in step with the text.
    return assetWire(updated, transferables);
  }
}
