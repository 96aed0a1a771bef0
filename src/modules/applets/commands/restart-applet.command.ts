import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppletListeners } from '../applet-listeners';
import { ActiveOSServerAppletWire } from '../wire/applet.wire';
import { activeApplet, servedApplet } from './launch-applet.command';

/**
 * Closes an applet's listener (and its connections) and opens it again on the port it had when
 * that is still free, else on a new one; a `port` other than the one Trove gave the applet is not
 * bound (`POST /os/applet/restart`).
 */
export class RestartAppletCommand extends Command<ActiveOSServerAppletWire> {
  constructor(readonly type: string) {
    super();
  }
}

@CommandHandler(RestartAppletCommand)
export class RestartAppletHandler implements ICommandHandler<RestartAppletCommand> {
  constructor(private readonly listeners: AppletListeners) {}

  async execute({ type }: RestartAppletCommand): Promise<ActiveOSServerAppletWire> {
    const applet = servedApplet(type);
    return activeApplet(applet, await this.listeners.restart(applet));
  }
}
