import { GroupedTimestamp, groupedTimestamp, nowIso } from '../../../common/wire/common.wire';

class AnonymousTemporalRangeWire {
  from: GroupedTimestamp;
  continuous: boolean;
}

class VisionStatusWire {
  activation: AnonymousTemporalRangeWire;
  degraded: boolean;
}

export class WorkstreamPatternEngineStatusWire {
  vision: VisionStatusWire;
}

const STARTED = nowIso();

/**
 * Pieces' long-term memory is a screen-capture engine; its CLI refuses the MCP memory tools
 * (ask_pieces_ltm, create_pieces_memory) unless the vision engine reports an activation. Trove
 * captures nothing: its long-term memory is its store (snippets, memories, conversations),
 * always on, so it reports an activation since the process started (docs/CLIENTS.md).
 */
export function ltmStatusWire(): WorkstreamPatternEngineStatusWire {
  return { vision: { activation: { from: groupedTimestamp(STARTED), continuous: true }, degraded: false } };
}
