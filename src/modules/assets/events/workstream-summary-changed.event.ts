import { IEvent } from '@nestjs/cqrs';

/** Published after a change to a workstream summary is committed. */
export class WorkstreamSummaryChangedEvent implements IEvent {
  constructor(
    readonly summaryId: string,
    readonly change: 'created' | 'deleted',
  ) {}
}
