import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { SeededScoreIncrementDto } from '../../../common/wire/dto/seeded-score-increment.dto';
import { CreateAssetCommand } from '../../assets/commands/create-asset.command';
import { IncrementAssetScoresCommand } from '../../assets/commands/increment-asset-scores.command';
import { SeedDto } from '../../assets/dto/seed.dto';
import { ConnectedApplications } from '../connected-applications';
import { ConnectorWriter } from '../connector.writer';
import { ReactionDto } from '../dto/connector.dto';
import { snippetText } from '../snippet-text';

/**
 * The user's answer to a Suggestion: `save` creates an asset from the seed (credited to the
 * application) and answers its id; `reuse` counts a reuse of the asset and answers OK;
 * neither records the dismissal and answers OK.
 */
export class ReactCommand extends Command<string> {
  constructor(
    readonly applicationId: string,
    readonly reaction: ReactionDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(ReactCommand)
export class ReactHandler implements ICommandHandler<ReactCommand> {
  constructor(
    private readonly db: Database,
    private readonly access: ConnectedApplications,
    private readonly writer: ConnectorWriter,
    private readonly commands: CommandBus,
  ) {}

  async execute({ applicationId, reaction }: ReactCommand): Promise<string> {
    if (!reaction) throw new InvalidInput('a Reaction {save, seed, reuse?} is required');
    const app = await this.db.read((em) => this.access.require(em, applicationId));
    if (reaction.save) {
      const asset = reaction.seed.asset;
      snippetText(asset, 'seed.asset'); // 400 before anything is written
      const seed = {
        asset: {
          application: { id: app.id, name: app.name, version: app.version, platform: app.platform },
          format: asset!.format,
          metadata: asset!.metadata,
        },
      } as SeedDto;
      const created = await this.commands.execute(new CreateAssetCommand(seed, false));
      await this.record(app.id, 'saved', created.id);
      return created.id;
    }
    if (reaction.reuse) {
      const assetId = reaction.reuse.asset.toLowerCase();
      // 404 / 410 when the asset is unknown or deleted.
      await this.commands.execute(
        new IncrementAssetScoresCommand(assetId, { asset: { reuse: true } } as SeededScoreIncrementDto),
      );
      await this.record(app.id, 'reused', assetId);
      return 'OK';
    }
    await this.record(app.id, 'dismissed', null);
    return 'OK';
  }

  private record(applicationId: string, kind: string, assetId: string | null): Promise<void> {
    return this.db.transaction((em) =>
      this.writer.events(em, [{ id: randomUUID(), applicationId, assetId, kind, payload: null, createdAt: nowIso() }]),
    );
  }
}
