import { GroupedTimestamp, Identified, groupedTimestamp, indexed } from '../../../common/wire/common.wire';
import { derivedId } from '../../../common/wire/derived-id';
import { TROVE_VERSION } from '../../../version';
import type { LinkedMemoryRecord, MemoryHit } from '../workstream-summary.reader';

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

/** FlattenedAnnotation: the summary's text (type SUMMARY) or its description (type DESCRIPTION). */
export class SummaryAnnotationWire {
  id: string;
  /** SUMMARY or DESCRIPTION. */
  type: string;
  text: string;
  mechanism: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  /** The summary it belongs to. */
  summary: Identified;
}
export class SummaryReferencedAnnotationWire {
  id: string;
  reference: SummaryAnnotationWire;
}
export class SummaryAnnotationsWire {
  iterable: SummaryReferencedAnnotationWire[];
  indices: Record<string, number>;
}

/** FlattenedWebsite: one link of the summary. */
export class SummaryWebsiteWire {
  id: string;
  name: string;
  url: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
}
export class SummaryReferencedWebsiteWire {
  id: string;
  reference: SummaryWebsiteWire;
}
export class SummaryWebsitesWire {
  iterable: SummaryReferencedWebsiteWire[];
  indices: Record<string, number>;
}

/** FlattenedAnchorPoint: the path of an anchor. */
export class SummaryAnchorPointReferenceWire {
  id: string;
  fullpath: string;
  anchor: Identified;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
}
export class SummaryAnchorPointWire {
  id: string;
  reference: SummaryAnchorPointReferenceWire;
}
export class SummaryAnchorPointsWire {
  iterable: SummaryAnchorPointWire[];
  indices: Record<string, number>;
}
/** FlattenedAnchor: a file of the summary (type FILE) or its project (type DIRECTORY). */
export class SummaryAnchorWire {
  id: string;
  /** FILE (a file) or DIRECTORY (the project). */
  type: string;
  name?: string;
  watch: boolean;
  points: SummaryAnchorPointsWire;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
}
export class SummaryReferencedAnchorWire {
  id: string;
  reference: SummaryAnchorWire;
}
export class SummaryAnchorsWire {
  iterable: SummaryReferencedAnchorWire[];
  indices: Record<string, number>;
}

/** FlattenedRange: the time the summary is about (its creation, or the time its client gave), as `from` and `to`. */
export class SummaryRangeWire {
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  from: GroupedTimestamp;
  to: GroupedTimestamp;
  between: boolean;
}
export class SummaryReferencedRangeWire {
  id: string;
  reference: SummaryRangeWire;
}
export class SummaryRangesWire {
  iterable: SummaryReferencedRangeWire[];
  indices: Record<string, number>;
}

export class SummaryAssetsWire {
  iterable: Identified[];
  indices: Record<string, number>;
}

/** WorkstreamPatternEngineSource: the application a summary came from. */
export class SummarySourceRawWire {
  name: string;
  application: string;
}
/** FlattenedIdentifiedWorkstreamPatternEngineSource. */
export class SummarySourceWire {
  id: string;
  raw: SummarySourceRawWire;
  name: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
}
export class SummaryReferencedSourceWire {
  id: string;
  reference: SummarySourceWire;
}
export class SummarySourcesWire {
  iterable: SummaryReferencedSourceWire[];
  indices: Record<string, number>;
}

/**
 * A WorkstreamSummary. Read on its own (GET /workstream_summary/{id}, the snapshot, search) it
 * carries everything it holds in the SDK's shapes: `annotations` (its text as a SUMMARY
 * annotation, its description as a DESCRIPTION one), `websites` (its links), `anchors` (its files
 * as FILE anchors, its project as a DIRECTORY anchor), `assets` (the linked assets) and `sources`
 * (the application that saved it), `ranges` (the time it is about). Embedded in an Asset it is a reference: id, name, times and model.
 */
export class WorkstreamSummaryWire {
  id: string;
  name: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  model: SummaryModelWire;
  annotations?: SummaryAnnotationsWire;
  websites?: SummaryWebsitesWire;
  anchors?: SummaryAnchorsWire;
  assets?: SummaryAssetsWire;
  sources?: SummarySourcesWire;
  /** The time it is about: one range whose `from` and `to` are that time. */
  ranges?: SummaryRangesWire;
}

export class WorkstreamSummariesWire {
  iterable: WorkstreamSummaryWire[];
}

/** SearchedWorkstreamSummary. */
export class SearchedWorkstreamSummaryWire {
  identifier: string;
  summary: WorkstreamSummaryWire;
  /** The whole query occurs as it is (case aside) in the name, the description or the text. */
  exact: boolean;
  /** The relevance, in (0, 1]: 1 for the best hit. */
  similarity: number;
}

export class SearchedWorkstreamSummariesWire {
  iterable: SearchedWorkstreamSummaryWire[];
}

/**
 * Trove stores no model per summary. A WorkstreamSummary must name one, so each summary is
 * attributed to Trove itself, a local (non-cloud) producer of unknown type and usage, dated
 * like the summary. The id is fixed so clients see one producer.
 */
const TROVE_SUMMARIZER_ID = '7a0e5c1e-5d6b-4c51-9a3e-70b0e5000001';

function modelWire(created: string): SummaryModelWire {
  return {
    id: TROVE_SUMMARIZER_ID,
    version: TROVE_VERSION,
    created: groupedTimestamp(created),
    name: 'Trove',
    cloud: false,
    type: 'UNKNOWN',
    usage: 'UNKNOWN',
  };
}

/** A summary embedded in an Asset: what identifies it (the rest is one read away). */
export function summaryReferenceWire(s: {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}): WorkstreamSummaryWire {
  return {
    id: s.id,
    name: s.name,
    created: groupedTimestamp(s.createdAt),
    updated: groupedTimestamp(s.updatedAt),
    model: modelWire(s.createdAt),
  };
}

/** The last segment of a path (the whole text when it has none). */
const baseName = (path: string): string => path.split(/[\\/]/).filter(Boolean).pop() ?? path;

/**
 * The records a summary holds, as the SDK's referenced records. They are parts of the summary,
 * not records of their own: their ids are derived from the summary's and what they hold, so they
 * are the same on every read, and their times are the summary's.
 */
export function workstreamSummaryWire(m: LinkedMemoryRecord): WorkstreamSummaryWire {
  const created = groupedTimestamp(m.created);
  const updated = groupedTimestamp(m.updated);
  const id = (kind: string, key: string) => derivedId(`workstream-summary-${kind}`, `${m.id}\n${key}`);
  const annotation = (type: 'SUMMARY' | 'DESCRIPTION', text: string): SummaryReferencedAnnotationWire => {
    const annotationId = id('annotation', type);
    return {
      id: annotationId,
      reference: { id: annotationId, type, text, mechanism: 'MANUAL', created, updated, summary: { id: m.id } },
    };
  };
  const anchor = (type: 'FILE' | 'DIRECTORY', path: string): SummaryReferencedAnchorWire => {
    const anchorId = id('anchor', `${type}\n${path}`);
    const pointId = id('anchor-point', `${type}\n${path}`);
    const name = baseName(path);
    return {
      id: anchorId,
      reference: {
        id: anchorId,
        type,
        ...(name ? { name } : {}),
        watch: false,
        points: indexed([
          { id: pointId, reference: { id: pointId, fullpath: path, anchor: { id: anchorId }, created, updated } },
        ]),
        created,
        updated,
      },
    };
  };
  const website = (url: string): SummaryReferencedWebsiteWire => {
    const websiteId = id('website', url);
    let name = url;
    try {
      name = new URL(url).hostname || url;
    } catch {
      // stored links were parsed when saved; a name is all this is for
    }
    return { id: websiteId, reference: { id: websiteId, name, url, created, updated } };
  };
  const range = (about: string): SummaryReferencedRangeWire => {
    const rangeId = id('range', about);
    const at = groupedTimestamp(about);
    return { id: rangeId, reference: { id: rangeId, created, updated, from: at, to: at, between: false } };
  };
  const annotations: SummaryReferencedAnnotationWire[] = [];
  if (m.text) annotations.push(annotation('SUMMARY', m.text));
  if (m.description) annotations.push(annotation('DESCRIPTION', m.description));
  const anchors = m.files.map((path) => anchor('FILE', path));
  if (m.project) anchors.push(anchor('DIRECTORY', m.project));
  const sources: SummaryReferencedSourceWire[] = [];
  if (m.source) {
    const sourceId = id('source', m.source);
    sources.push({
      id: sourceId,
      reference: { id: sourceId, raw: { name: m.source, application: m.source }, name: m.source, created, updated },
    });
  }
  return {
    id: m.id,
    name: m.name,
    created,
    updated,
    model: modelWire(m.created),
    annotations: indexed(annotations),
    websites: indexed(m.links.map(website)),
    anchors: indexed(anchors),
    assets: indexed(m.assets.map((asset) => ({ id: asset }))),
    sources: indexed(sources),
    ranges: indexed([range(m.about)]),
  };
}

/** Whether the whole query occurs as it is (case aside) in the name, the description or the text. */
function exactly(hit: MemoryHit, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return false;
  return [hit.name, hit.description ?? '', hit.text].some((field) => field.toLowerCase().includes(needle));
}

export function searchedWorkstreamSummaryWire(
  hit: MemoryHit & LinkedMemoryRecord,
  query: string,
): SearchedWorkstreamSummaryWire {
  return { identifier: hit.id, summary: workstreamSummaryWire(hit), exact: exactly(hit, query), similarity: hit.score };
}
