import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppletListeners } from '../applet-listeners';
import { servedApplet } from './launch-applet.command';

/** Closes an applet's listener and its connections; an applet that is not running stays so (`POST /os/applet/terminate`). */
export class TerminateAppletCommand extends Command<void> {
  constructor(readonly type: string) {
    super();
  }
}

@CommandHandler(TerminateAppletCommand)
export class TerminateAppletHandler implements ICommandHandler<TerminateAppletCommand> {
  constructor(private readonly listeners: AppletListeners) {}

  async execute({ type }: TerminateAppletCommand): Promise<void> {
    await this.listeners.terminate(servedApplet(type));
  }
}
