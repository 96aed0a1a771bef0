import { IEvent } from '@nestjs/cqrs';

/** Published after a search answered: the assets it returned, best first. */
export class AssetsSearchedEvent implements IEvent {
  constructor(
    readonly assetIds: string[],
    readonly query: string,
  ) {}
}
