import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { ClassificationSpecificEnum } from '../../../common/wire/enums';
import { AssetDto, FormatDto } from './asset.dto';

/** POST /asset/reclassify: the asset (its `id` is what counts) and the language to relabel it to. */
export class AssetReclassificationDto {
  @OneOf(ClassificationSpecificEnum)
  ext: ClassificationSpecificEnum;

  @Nested(() => AssetDto)
  asset: AssetDto;
}
PassThrough(AssetReclassificationDto.prototype, ['schema']);

/** POST /format/reclassify: the format (its `id` is what counts) and the language to relabel it to. */
export class FormatReclassificationDto {
  @OneOf(ClassificationSpecificEnum)
  ext: ClassificationSpecificEnum;

  @Nested(() => FormatDto)
  format: FormatDto;
}
PassThrough(FormatReclassificationDto.prototype, ['schema']);
