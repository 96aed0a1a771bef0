import { IEvent } from '@nestjs/cqrs';

/** Published after a change to the models table is committed (created, discovered, deleted). */
export class ModelChangedEvent implements IEvent {
  constructor(
    readonly id: string,
    readonly deleted: boolean,
  ) {}
}
