import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { ApplicationRegistry } from '../../system/application.registry';
import { ApplicationUnitOfWork } from '../../system/application-unit-of-work';
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
    private readonly uow: ApplicationUnitOfWork,
    private readonly access: ConnectedApplications,
    private readonly applications: ApplicationRegistry,
  ) {}

  async execute({ applicationId, onboarded }: SetOnboardedCommand): Promise<string> {
    if (onboarded !== undefined && typeof onboarded !== 'boolean') {
      throw new InvalidInput('the body must be a JSON boolean (true or false)');
    }
    await this.uow.run(async ({ em, changed }) => {
      const app = await this.access.require(em, applicationId);
      await this.applications.setOnboarded(em, app.id, typeof onboarded === 'boolean' ? onboarded : true);
      changed({ id: app.id });
    });
    return 'OK';
  }
}
