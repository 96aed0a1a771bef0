import { Command, CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { INTERFACE_VERSION } from '../../../version';
import { ApplicationRegistry } from '../../system/application.registry';
import { ApplicationUnitOfWork } from '../../system/application-unit-of-work';
import { GetUserQuery } from '../../system/queries/get-user.query';
import { applicationWire } from '../../system/wire/application.wire';
import { ConnectedApplications } from '../connected-applications';
import { SeededConnectorConnectionDto } from '../dto/connector.dto';
import { OsIdentity } from '../os-identity';
import { ContextWire } from '../wire/context.wire';

/**
 * The handshake of an integration: records its Application (or reuses the one with the same
 * name + platform + version), marks it connected (with the capabilities it names, if any), and
 * answers the Context it works in.
 */
export class ConnectCommand extends Command<ContextWire> {
  constructor(readonly connection: SeededConnectorConnectionDto | undefined) {
    super();
  }
}

@CommandHandler(ConnectCommand)
export class ConnectHandler implements ICommandHandler<ConnectCommand> {
  constructor(
    private readonly uow: ApplicationUnitOfWork,
    private readonly registry: ApplicationRegistry,
    private readonly access: ConnectedApplications,
    private readonly os: OsIdentity,
    private readonly queries: QueryBus,
  ) {}

  async execute({ connection }: ConnectCommand): Promise<ContextWire> {
    const seeded = connection?.application;
    if (!seeded)
      throw new InvalidInput('a SeededConnectorConnection with application {name, version, platform} is required');
    this.access.requireAllowed(seeded.name);
    const identity = { name: seeded.name, version: seeded.version, platform: seeded.platform, privacy: seeded.privacy };
    // Announced on /applications/stream/identifiers (GET /applications lists it from now on).
    const app = await this.uow.run(async ({ em, changed }) => {
      const found = await this.registry.resolve(em, identity);
      const connectedAt = await this.registry.markConnected(em, found.id);
      const capabilities =
        seeded.capabilities && seeded.capabilities !== found.capabilities ? { capabilities: seeded.capabilities } : {};
      await this.registry.updateSettings(em, found.id, capabilities);
      changed({ id: found.id });
      return { ...found, ...capabilities, connectedAt };
    });
    this.registry.remember(identity, app.id);
    const { user } = await this.queries.execute(new GetUserQuery());
    return {
      os: this.os.id,
      application: applicationWire(app),
      health: { os: { id: this.os.id, version: INTERFACE_VERSION } },
      user,
    };
  }
}
