import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput, NotFound } from '../../../common/errors/domain-errors';
import { ApplicationReader } from '../application.reader';
import { ApplicationRegistry } from '../application.registry';
import { ApplicationUnitOfWork } from '../application-unit-of-work';
import { ApplicationUpdateDto } from '../dto/application.dto';
import { ApplicationWire, applicationWire } from '../wire/application.wire';

/**
 * POST /application/update: an integration changes its settings (Obsidian and Raycast send their
 * Application back with the user's "cloud capabilities" choice). Its capabilities, privacy and
 * onboarded flag are stored and announced on /applications/stream/identifiers; its name, version
 * and platform are its identity, which only POST /connect registers (another is a 400).
 */
export class UpdateApplicationCommand extends Command<ApplicationWire> {
  constructor(readonly application: ApplicationUpdateDto | undefined) {
    super();
  }
}

@CommandHandler(UpdateApplicationCommand)
export class UpdateApplicationHandler implements ICommandHandler<UpdateApplicationCommand> {
  constructor(
    private readonly uow: ApplicationUnitOfWork,
    private readonly reader: ApplicationReader,
    private readonly registry: ApplicationRegistry,
  ) {}

  async execute({ application }: UpdateApplicationCommand): Promise<ApplicationWire> {
    if (!application)
      throw new InvalidInput('an Application body (as POST /connect answered it, with its id) is required');
    const updated = await this.uow.run(async ({ em, changed }) => {
      const stored = await this.reader.byId(em, application.id);
      if (!stored)
        throw new NotFound(`application ${application.id} not found (POST /connect registers an application)`);
      const identity = (['name', 'version', 'platform'] as const).filter(
        (field) => stored[field] !== application[field],
      );
      if (identity.length) {
        throw new InvalidInput(
          `an application's ${identity.join(', ')} cannot change (they are its identity: POST /connect registers ${application.name} ${application.version} ${application.platform} as another application)`,
        );
      }
      const settings = {
        ...(application.capabilities !== undefined ? { capabilities: application.capabilities } : {}),
        ...(application.privacy !== undefined ? { privacy: application.privacy } : {}),
        ...(application.onboarded !== undefined ? { onboarded: application.onboarded } : {}),
      };
      await this.registry.updateSettings(em, stored.id, settings);
      changed({ id: stored.id });
      return { ...stored, ...settings };
    });
    return applicationWire(updated);
  }
}
