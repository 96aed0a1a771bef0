import { OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { OSAppletEnum } from '../../../common/wire/enums';

/** InactiveOSServerApplet: which applet a client wants opened. */
export class InactiveOSServerAppletDto {
  @OneOf(OSAppletEnum)
  type: string;
}
PassThrough(InactiveOSServerAppletDto.prototype, ['schema', 'port', 'handler', 'parent']);

export class AppletServingHandlerWire {
  type: string;
}

/** ActiveOSServerApplet: where the applet is served (here: Trove's own port and page). */
export class ActiveOSServerAppletWire {
  type: string;
  port: number;
  handler: AppletServingHandlerWire;
}
