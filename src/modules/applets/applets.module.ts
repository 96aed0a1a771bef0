import { Module } from '@nestjs/common';
import { AppletListeners } from './applet-listeners';
import { AppletsController } from './applets.controller';
import { LaunchAppletHandler } from './commands/launch-applet.command';
import { RestartAppletHandler } from './commands/restart-applet.command';
import { TerminateAppletHandler } from './commands/terminate-applet.command';
import { AboutHandler } from './queries/about.query';
import { AboutController } from './about.controller';
import { WebAppController } from './web-app.controller';
import { WebAssets } from './web-assets';

const commandHandlers = [LaunchAppletHandler, RestartAppletHandler, TerminateAppletHandler];

/** The web app (docs/APP.md): its page and files, and the plugins' applets, each on a listener of its own. */
@Module({
  controllers: [AppletsController, WebAppController, AboutController],
  providers: [
    AppletListeners,
    { provide: WebAssets, useFactory: () => WebAssets.load() },
    ...commandHandlers,
    AboutHandler,
  ],
  exports: [AppletListeners],
})
export class AppletsModule {}
