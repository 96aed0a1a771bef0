import { IsArray, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { PassThrough } from '../../../common/wire/dto/decorators';

/** UncheckedOSServerUpdate: the body of POST /os/update/check (clients send `{}`). */
export class UncheckedOSServerUpdateDto {}
PassThrough(UncheckedOSServerUpdateDto.prototype, ['schema']);

/** FilePickerInput: what a file picker would be asked to show. */
export class FilePickerInputDto {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  allowedExtensions?: string[];

  @IsOptional()
  @IsBoolean()
  allowMultiple?: boolean;
}
PassThrough(FilePickerInputDto.prototype, ['schema']);
