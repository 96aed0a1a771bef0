import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { ApplicationRegistry } from '../../system/application.registry';
import { ConnectedApplications } from '../connected-applications';

/** Stores whether the user finished onboarding in an integration (no body means true). */
export class SetOnboardedCommand extends Command<string> {
  constructor(
    readonly applicationId: string,
    readonly onboarded: unknown,
  ) {
    super();
  }
}

@CommandHandler(SetOnboardedCommand)
export class SetOnboardedHandler implements ICommandHandler<SetOnboardedCommand> {
  constructor(
    private readonly db: Database,
    private readonly access: ConnectedApplications,
    private readonly applications: ApplicationRegistry,
  ) {}

  async execute({ applicationId, onboarded }: SetOnboardedCommand): Promise<string> {
    if (onboarded !== undefined && typeof onboarded !== 'boolean') {
      throw new InvalidInput('the body must be a JSON boolean (true or false)');
    }
    await this.db.transaction(async (em) => {
      const app = await this.access.require(em, applicationId);
      await this.applications.setOnboarded(em, app.id, typeof onboarded === 'boolean' ? onboarded : true);
    });
    return 'OK';
  }
}
