import { Module } from '@nestjs/common';
import { SystemModule } from '../system/system.module';
import { AssetController } from './asset.controller';
import { AssetReader } from './asset.reader';
import { AssetWriter } from './asset.writer';
import { AssetsController } from './assets.controller';
import { CreateAssetHandler } from './commands/create-asset.command';
import { DeleteAssetHandler } from './commands/delete-asset.command';
import { UpdateAssetHandler } from './commands/update-asset.command';
import { GetAssetFormatsHandler } from './queries/get-asset-formats.query';
import { GetAssetHandler } from './queries/get-asset.query';
import { ListAssetIdentifiersHandler } from './queries/list-asset-identifiers.query';
import { ListAssetsHandler } from './queries/list-assets.query';

const commandHandlers = [CreateAssetHandler, UpdateAssetHandler, DeleteAssetHandler];
const queryHandlers = [GetAssetHandler, GetAssetFormatsHandler, ListAssetsHandler, ListAssetIdentifiersHandler];

@Module({
  imports: [SystemModule],
  controllers: [AssetsController, AssetController],
  providers: [AssetReader, AssetWriter, ...commandHandlers, ...queryHandlers],
  exports: [AssetReader, AssetWriter],
})
export class AssetsModule {}
