import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../common/config/app-config';
import { AppHost } from '../../../common/config/app-host';
import { Forbidden, Unavailable } from '../../../common/errors/domain-errors';

/**
 * POST /os/terminate (a plugin's "Close PiecesOS"): in local mode (a loopback address, no API
 * keys: the one user of this machine) the process shuts down as on SIGINT, once the answer is
 * sent (`answered`): every shutdown hook runs, streams close with 1001, the port file is removed.
 * An instance deployed for others (API keys, or any other address) refuses: no client stops a
 * shared server.
 */
export class TerminateCommand extends Command<void> {
  constructor(readonly answered: Promise<void>) {
    super();
  }
}

@CommandHandler(TerminateCommand)
export class TerminateHandler implements ICommandHandler<TerminateCommand> {
  constructor(
    private readonly host: AppHost,
    private readonly config: AppConfig,
  ) {}

  async execute({ answered }: TerminateCommand): Promise<void> {
    if (!this.config.localMode) {
      throw new Forbidden(
        `this Trove is shared (${this.config.apiKeys.length ? 'API keys are set' : `it listens on ${this.config.host}, not a loopback address`}): a client cannot stop it; stop its process instead`,
      );
    }
    if (!this.host.canTerminate) {
      throw new Unavailable(
        'this instance cannot stop itself: it was created without a terminate handler (as benchmarks and scripts create it); stop its process instead',
      );
    }
    void answered.then(() => this.host.terminate());
  }
}
