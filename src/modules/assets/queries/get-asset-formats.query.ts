import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../asset.reader';
import { FormatsWire, formatsWire } from '../wire/asset.wire';

export class GetAssetFormatsQuery extends Query<FormatsWire> {
  constructor(
    readonly assetId: string,
    readonly transferables: boolean,
  ) {
    super();
  }
}

@QueryHandler(GetAssetFormatsQuery)
export class GetAssetFormatsHandler implements IQueryHandler<GetAssetFormatsQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  execute({ assetId, transferables }: GetAssetFormatsQuery): Promise<FormatsWire> {
    return this.db.read(async (em) => formatsWire(await this.reader.one(em, assetId), transferables));
  }
}
