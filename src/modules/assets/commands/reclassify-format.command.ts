import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isUUID } from 'class-validator';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { AssetReader } from '../asset.reader';
import { FormatReclassificationDto } from '../dto/asset-reclassification.dto';
import { FormatWire } from '../wire/asset.wire';
import { ReclassifyAssetCommand } from './reclassify-asset.command';

/**
 * POST /format/reclassify: relabels one format (the round-tripped Format's `id`) to the language
 * `ext`, as POST /asset/reclassify relabels every text format of an asset (same rules: a text
 * format only, to a text language; the generated name, description and tags follow when it is
 * the asset's first format). Answers the format. Obsidian sends it for the text an image's OCR
 * made; Trove keeps text formats only, so it relabels that text format. 404 for an unknown format.
 */
export class ReclassifyFormatCommand extends Command<FormatWire> {
  constructor(
    readonly input: FormatReclassificationDto | undefined,
    readonly transferable: boolean,
  ) {
    super();
  }
}

@CommandHandler(ReclassifyFormatCommand)
export class ReclassifyFormatHandler implements ICommandHandler<ReclassifyFormatCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  async execute({ input, transferable }: ReclassifyFormatCommand): Promise<FormatWire> {
    if (!input?.ext || !input.format) throw new InvalidInput('a FormatReclassification body {ext, format} is required');
    const formatId = input.format.id;
    if (!isUUID(formatId)) throw new InvalidInput('format.id must be the UUID of a format');
    const assetId = await this.db.read((em) => this.reader.formatOwner(em, formatId));
    const asset = await this.commands.execute(
      new ReclassifyAssetCommand({ ext: input.ext, asset: { id: assetId } }, transferable, formatId),
    );
    return asset.formats.iterable.find((f) => f.id === formatId)!;
  }
}
