import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFound } from '../../../common/errors/domain-errors';
import { TROVE_VERSION } from '../../../version';
import { AppletListeners } from '../applet-listeners';
import { APPLET_VIEWS, AppletType, isServedApplet } from '../applet-roles';
import { ActiveOSServerAppletWire } from '../wire/applet.wire';

/** The applet types Trove serves, for error messages. */
export const SERVED = Object.keys(APPLET_VIEWS).join(', ');

export function servedApplet(type: string): AppletType {
  if (!isServedApplet(type)) throw new NotFound(`Trove has no ${type} applet: it serves ${SERVED}`);
  return type;
}

export function activeApplet(type: AppletType, port: number): ActiveOSServerAppletWire {
  return { type, port, handler: { type: 'trove-web', isFolder: false, version: TROVE_VERSION } };
}

/** Opens an applet's listener, or answers the port it already has (`POST /os/applet/launch`). */
export class LaunchAppletCommand extends Command<ActiveOSServerAppletWire> {
  constructor(readonly type: string) {
    super();
  }
}

@CommandHandler(LaunchAppletCommand)
export class LaunchAppletHandler implements ICommandHandler<LaunchAppletCommand> {
  constructor(private readonly listeners: AppletListeners) {}

  async execute({ type }: LaunchAppletCommand): Promise<ActiveOSServerAppletWire> {
    const applet = servedApplet(type);
    return activeApplet(applet, await this.listeners.launch(applet));
  }
}
