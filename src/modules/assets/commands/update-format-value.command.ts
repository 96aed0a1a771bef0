import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../asset.reader';
import { textOf } from '../asset-text';
import { AssetDto, FormatDto } from '../dto/asset.dto';
import { FormatWire } from '../wire/asset.wire';
import { UpdateAssetCommand } from './update-asset.command';

/**
 * POST /format/update/value: a round-tripped Format with new content (`fragment.string.raw`,
 * or `file.string.raw`), as `pieces modify` sends it. It is an edit of the asset's format
 * through UpdateAssetCommand: the same detection, reindexing, outbox entry and events.
 */
export class UpdateFormatValueCommand extends Command<FormatWire> {
  constructor(
    readonly format: FormatDto | undefined,
    readonly transferables: boolean,
  ) {
    super();
  }
}

@CommandHandler(UpdateFormatValueCommand)
export class UpdateFormatValueHandler implements ICommandHandler<UpdateFormatValueCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly commands: CommandBus,
  ) {}

  async execute({ format, transferables }: UpdateFormatValueCommand): Promise<FormatWire> {
    if (!format) throw new InvalidInput('a Format body is required');
    const file = (format as { file?: { string?: { raw?: unknown } } }).file;
    const raw =
      textOf(format.fragment?.string) ?? (typeof file?.string?.raw === 'string' ? file.string.raw : undefined);
    if (raw === undefined) throw new InvalidInput('the new value goes in fragment.string.raw (or file.string.raw)');
    const assetId = await this.db.read((em) => this.reader.formatOwner(em, format.id));
    const edit = {
      id: assetId,
      formats: { iterable: [{ id: format.id, fragment: { string: { raw } } }] },
    } as unknown as AssetDto;
    const asset = await this.commands.execute(new UpdateAssetCommand(edit, transferables));
    return asset.formats.iterable.find((f) => f.id === format.id)!;
  }
}
