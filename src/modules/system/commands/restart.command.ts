import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppHost } from '../../../common/config/app-host';
import { Forbidden, Unavailable } from '../../../common/errors/domain-errors';

/**
 * Restarts the instance in-process (`pieces restart`): the app is closed the normal way and a
 * fresh one listens on the same port. `answered` settles once the response has been sent (or
 * its connection closed): the restart starts only then, so the client gets its answer.
 * `crossSitePage`: the request came from another site's page without an Origin (an `<img>`, a
 * link): refused, as a GET that changes something must be (see crossSiteWithoutOrigin).
 */
export class RestartCommand extends Command<string> {
  constructor(
    readonly answered: Promise<void>,
    readonly crossSitePage: boolean,
  ) {
    super();
  }
}

@CommandHandler(RestartCommand)
export class RestartHandler implements ICommandHandler<RestartCommand> {
  constructor(private readonly host: AppHost) {}

  async execute({ answered, crossSitePage }: RestartCommand): Promise<string> {
    if (crossSitePage)
      throw new Forbidden('a page of another site cannot restart Trove (cross-site browser request without an Origin)');
    if (!this.host.canRestart) {
      throw new Unavailable(
        'this instance cannot restart itself: it was created without a restart handler (as benchmarks and scripts create it); restart its process instead',
      );
    }
    // A second request before the restart began joins it (AppHost.restart does nothing twice).
    void answered.then(() => this.host.restart());
    return 'restarting';
  }
}
