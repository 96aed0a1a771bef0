import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppletListeners } from '../applet-listeners';
import { ActiveOSServerAppletWire } from '../wire/applet.wire';
import { activeApplet, servedApplet } from './launch-applet.command';

/**
 * Closes an applet's listener (and its connections) and opens it again, on the port the plugin
 * names when it is free, else on the one it had, else a new one (`POST /os/applet/restart`).
 */
export class RestartAppletCommand extends Command<ActiveOSServerAppletWire> {
  constructor(
    readonly type: string,
    readonly port: number | undefined,
  ) {
    super();
  }
}

@CommandHandler(RestartAppletCommand)
export class RestartAppletHandler implements ICommandHandler<RestartAppletCommand> {
  constructor(private readonly listeners: AppletListeners) {}

  async execute({ type, port }: RestartAppletCommand): Promise<ActiveOSServerAppletWire> {
    const applet = servedApplet(type);
    return activeApplet(applet, await this.listeners.restart(applet, port));
  }
}
