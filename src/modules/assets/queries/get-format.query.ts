import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../asset.reader';
import { FormatWire, formatsWire } from '../wire/asset.wire';

/** GET /format/{format}: one format as its asset shows it (404 when unknown, also once its asset is deleted: a tombstone keeps no formats). */
export class GetFormatQuery extends Query<FormatWire> {
  constructor(
    readonly formatId: string,
    readonly transferables: boolean,
  ) {
    super();
  }
}

@QueryHandler(GetFormatQuery)
export class GetFormatHandler implements IQueryHandler<GetFormatQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  execute({ formatId, transferables }: GetFormatQuery): Promise<FormatWire> {
    return this.db.read(async (em) => {
      const aggregate = await this.reader.one(em, await this.reader.formatOwner(em, formatId));
      return formatsWire(aggregate, transferables).iterable.find((f) => f.id === formatId)!;
    });
  }
}
