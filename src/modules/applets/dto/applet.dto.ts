import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { OSAppletEnum } from '../../../common/wire/enums';

/** InactiveOSServerApplet: which applet a client wants opened (`port`: the one it had, on restart). */
export class InactiveOSServerAppletDto {
  @OneOf(OSAppletEnum)
  type: string;

  /** The port the plugin's frame was loaded from (restart): validated, not bound as such (the applet reopens on the port Trove gave it). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  port?: number;
}
PassThrough(InactiveOSServerAppletDto.prototype, ['schema', 'handler', 'parent']);

/** TerminatingOSServerApplet: the applet to stop (`port` optional: the type names it). */
export class TerminatingOSServerAppletDto extends InactiveOSServerAppletDto {}
