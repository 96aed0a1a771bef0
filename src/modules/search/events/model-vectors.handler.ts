import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { AssetChangedEvent } from '../../assets/events/asset-changed.event';
import { WorkstreamSummaryChangedEvent } from '../../assets/events/workstream-summary-changed.event';
import { ModelVectorIndex } from '../model-vector-index';

/** After a snippet or a memory change commits: its vector in the embedding model is computed again, or removed (in the background). */
@EventsHandler(AssetChangedEvent, WorkstreamSummaryChangedEvent)
export class ModelVectorsHandler implements IEventHandler<AssetChangedEvent | WorkstreamSummaryChangedEvent> {
  constructor(private readonly index: ModelVectorIndex) {}

  handle(event: AssetChangedEvent | WorkstreamSummaryChangedEvent): void {
    if (event instanceof WorkstreamSummaryChangedEvent) this.index.enqueue('memory', event.summaryId);
    else this.index.enqueue('asset', event.assetId);
  }
}
