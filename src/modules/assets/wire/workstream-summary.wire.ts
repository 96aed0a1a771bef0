import { GroupedTimestamp, groupedTimestamp } from '../../../common/wire/common.wire';
import { TROVE_VERSION } from '../../../version';
import { WorkstreamSummaryEntity } from '../workstream-summary.entity';

/** The Model a WorkstreamSummary names (required by the SDKs). */
export class SummaryModelWire {
  id: string;
  version: string;
  created: GroupedTimestamp;
  name: string;
  cloud: boolean;
  type: string;
  usage: string;
}

export class WorkstreamSummaryWire {
  id: string;
  name: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  model: SummaryModelWire;
}

export class WorkstreamSummariesWire {
  iterable: WorkstreamSummaryWire[];
}

/**
 * Trove stores no model per summary. A WorkstreamSummary must name one, so each summary is
 * attributed to Trove itself, a local (non-cloud) producer of unknown type and usage, dated
 * like the summary. The id is fixed so clients see one producer.
 */
const TROVE_SUMMARIZER_ID = '7a0e5c1e-5d6b-4c51-9a3e-70b0e5000001';

export function workstreamSummaryWire(s: WorkstreamSummaryEntity): WorkstreamSummaryWire {
  return {
    id: s.id,
    name: s.name,
    created: groupedTimestamp(s.createdAt),
    updated: groupedTimestamp(s.updatedAt),
    model: {
      id: TROVE_SUMMARIZER_ID,
      version: TROVE_VERSION,
      created: groupedTimestamp(s.createdAt),
      name: 'Trove',
      cloud: false,
      type: 'UNKNOWN',
      usage: 'UNKNOWN',
    },
  };
}
