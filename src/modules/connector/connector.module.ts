import { Module } from '@nestjs/common';
import { SearchModule } from '../search/search.module';
import { AssetsModule } from '../assets/assets.module';
import { SystemModule } from '../system/system.module';
import { ConnectHandler } from './commands/connect.command';
import { ReactHandler } from './commands/react.command';
import { RecordIntentionHandler } from './commands/record-intention.command';
import { SetOnboardedHandler } from './commands/set-onboarded.command';
import { TrackHandler } from './commands/track.command';
import { ConnectedApplicationGuard } from './connected-application.guard';
import { ConnectedApplications } from './connected-applications';
import { ConnectorController } from './connector.controller';
import { ConnectorWriter } from './connector.writer';
import { OsIdentity } from './os-identity';
import { SuggestHandler } from './queries/suggest.query';

const commandHandlers = [ConnectHandler, RecordIntentionHandler, SetOnboardedHandler, ReactHandler, TrackHandler];
const queryHandlers = [SuggestHandler];

/**
 * The connector: integrations connect (POST /connect), then report intentions, reactions,
 * tracking events and onboarding under `/{application}/...`, and ask whether a copied
 * snippet should be reused or saved. Assets are created through CreateAssetCommand.
 */
@Module({
  imports: [SystemModule, AssetsModule, SearchModule],
  controllers: [ConnectorController],
  providers: [
    ConnectedApplications,
    ConnectedApplicationGuard,
    ConnectorWriter,
    OsIdentity,
    ...commandHandlers,
    ...queryHandlers,
  ],
})
export class ConnectorModule {}
