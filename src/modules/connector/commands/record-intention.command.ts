import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { nowIso } from '../../../common/wire/common.wire';
import { ConnectedApplications } from '../connected-applications';
import { ConnectorWriter } from '../connector.writer';
import { SeededConnectorAssetDto } from '../dto/connector.dto';
import { normalizeSnippet } from '../snippet-similarity';
import { snippetText } from '../snippet-text';

/** Keeps a snippet an integration is about to use, for later comparison; answers its id. */
export class RecordIntentionCommand extends Command<string> {
  constructor(
    readonly applicationId: string,
    readonly asset: SeededConnectorAssetDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(RecordIntentionCommand)
export class RecordIntentionHandler implements ICommandHandler<RecordIntentionCommand> {
  constructor(
    private readonly db: Database,
    private readonly access: ConnectedApplications,
    private readonly writer: ConnectorWriter,
  ) {}

  async execute({ applicationId, asset }: RecordIntentionCommand): Promise<string> {
    const raw = snippetText(asset, 'a SeededConnectorAsset');
    const id = randomUUID();
    await this.db.transaction(async (em) => {
      const app = await this.access.require(em, applicationId);
      await this.writer.intention(em, {
        id,
        applicationId: app.id,
        name: asset!.metadata?.name?.trim() || null,
        raw,
        normalized: normalizeSnippet(raw),
        createdAt: nowIso(),
      });
    });
    return id;
  }
}
