import { ArrayMaxSize, ArrayMinSize } from 'class-validator';
import { Nested, PassThrough } from '../../../common/wire/dto/decorators';
import { SeededAssetTagDto } from '../../assets/dto/seed.dto';

/** SeededAssetTags: the tags of POST /search/tag_based. */
export class SeededAssetTagsDto {
  @Nested(() => SeededAssetTagDto, { each: true })
  @ArrayMinSize(1, { message: 'iterable must hold at least one tag' })
  @ArrayMaxSize(100)
  iterable: SeededAssetTagDto[];
}
PassThrough(SeededAssetTagsDto.prototype, ['schema']);
