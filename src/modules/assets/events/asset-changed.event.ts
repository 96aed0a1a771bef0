import { IEvent } from '@nestjs/cqrs';

export type AssetChange = 'created' | 'updated' | 'deleted';

/** Published after a change to an asset is committed. */
export class AssetChangedEvent implements IEvent {
  constructor(
    readonly assetId: string,
    readonly change: AssetChange,
  ) {}
}
