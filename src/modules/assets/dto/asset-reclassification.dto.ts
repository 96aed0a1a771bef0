import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { ClassificationSpecificEnum } from '../../../common/wire/enums';
import { AssetDto } from './asset.dto';

/** POST /asset/reclassify: the asset (its `id` is what counts) and the language to relabel it to. */
export class AssetReclassificationDto {
  @OneOf(ClassificationSpecificEnum)
  ext: ClassificationSpecificEnum;

  @Nested(() => AssetDto)
  asset: AssetDto;
}
PassThrough(AssetReclassificationDto.prototype, ['schema']);
