import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PassThrough } from '../../../common/wire/dto/decorators';

/** Identifies who is reading an asset (POST /asset/{asset}). */
export class SeededAccessorDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  os?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  share?: string;
}
PassThrough(SeededAccessorDto.prototype, ['schema', 'user']);
