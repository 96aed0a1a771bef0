import {
  ByteDescriptor,
  GroupedTimestamp,
  Identified,
  Score,
  byteDescriptor,
  groupedTimestamp,
  indexed,
} from '../../../common/wire/common.wire';
import { withJsonWriter } from '../../../common/http/json-writers';
import { ApplicationWire, applicationWire } from '../../system/wire/application.wire';
import { AnnotationEntity } from '../annotation.entity';
import { AssetEntity } from '../asset.entity';
import { FormatEntity } from '../format.entity';
import { SensitiveEntity } from '../sensitive.entity';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { WorkstreamSummaryEntity } from '../workstream-summary.entity';
import { WorkstreamSummariesWire, summaryReferenceWire } from './workstream-summary.wire';

/** An asset with everything its wire form shows, loaded by AssetReader. */
export interface AssetAggregate {
  asset: AssetEntity;
  formats: FormatEntity[];
  annotations: AnnotationEntity[];
  tags: TagEntity[];
  websites: WebsiteEntity[];
  summaries: WorkstreamSummaryEntity[];
  /** The secrets found in its text that the user did not dismiss, in text order. */
  sensitives: SensitiveEntity[];
}

class ClassificationWire {
  generic: string;
  specific: string;
}
export class TransferableStringWire {
  raw: string;
}
class FragmentWire {
  string: TransferableStringWire;
}

class FormatBase {
  id: string;
  creator: string;
  classification: ClassificationWire;
  role: string;
  application: ApplicationWire;
  bytes: ByteDescriptor;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  /** Omitted when `transferables=false`. */
  fragment?: FragmentWire;
}
export class FlattenedFormatWire extends FormatBase {
  /** The asset's id. */
  asset: string;
}
export class ReferencedFormatWire {
  id: string;
  reference: FlattenedFormatWire;
}

/** Score plus the per-kind counters of POST /asset/{asset}/scores/increment. */
class AssetScoreWire extends Score {
  reuse: number;
  update: number;
  reference: number;
  priority: number;
  searched: number;
}

class AssetBase {
  id: string;
  name?: string;
  creator: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  mechanism: string;
  favorited: boolean;
  pseudo: boolean;
  score: AssetScoreWire;
}
export class FlattenedPreviewWire {
  base: string;
}
export class FlattenedFormatsWire {
  iterable: Identified[];
  indices: Record<string, number>;
}
export class FlattenedAssetWire extends AssetBase {
  formats: FlattenedFormatsWire;
  preview: FlattenedPreviewWire;
  original: string;
}
export class FormatWire extends FormatBase {
  asset: FlattenedAssetWire;
}
export class FormatsWire {
  iterable: FormatWire[];
}
export class PreviewWire {
  base: ReferencedFormatWire;
}
export class AnnotationWire {
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  type: string;
  text: string;
  mechanism: string;
  asset?: Identified;
}
export class AnnotationsWire {
  iterable: AnnotationWire[];
  /** Id -> position in `iterable`, when it has items (the official clients fetch each record through it). */
  indices?: Record<string, number>;
}
export class TagWire {
  id: string;
  text: string;
  category: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
}
export class TagsWire {
  iterable: TagWire[];
  /** Id -> position in `iterable`, when it has items (the official clients fetch each record through it). */
  indices?: Record<string, number>;
}
export class WebsiteWire {
  id: string;
  url: string;
  name: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
}
export class WebsitesWire {
  iterable: WebsiteWire[];
  /** Id -> position in `iterable`, when it has items (the official clients fetch each record through it). */
  indices?: Record<string, number>;
}
export class AssetWire extends AssetBase {
  formats: FormatsWire;
  preview: PreviewWire;
  original: ReferencedFormatWire;
  annotations: AnnotationsWire;
  tags: TagsWire;
  websites: WebsitesWire;
  summaries: WorkstreamSummariesWire;
  /** The secrets found in its text (SDK Sensitives), present when there are any. */
  sensitives?: SensitivesWire;
}
export class AssetsWire {
  iterable: AssetWire[];
  /** Paged listings only (Trove's `limit`/`cursor` extension): the cursor of the next page, null on the last. */
  next_cursor?: string | null;
}
export class FlattenedAssetsWire {
  iterable: Identified[];
  indices: Record<string, number>;
  /** As AssetsWire.next_cursor. */
  next_cursor?: string | null;
}

// The mappers below build each object in one literal, optional fields set to `undefined`
// (JSON leaves them out): objects of one kind then share one shape. Spreading an object that
// has a conditional key made assetWire 14x slower (21 us a call instead of 1.5; it runs on every read).

export function annotationWire(a: AnnotationEntity): AnnotationWire {
  return {
    id: a.id,
    created: groupedTimestamp(a.createdAt),
    updated: groupedTimestamp(a.updatedAt),
    type: a.type,
    text: a.text,
    mechanism: a.mechanism,
    asset: a.assetId ? { id: a.assetId } : undefined,
  };
}

/** Tag records are shared and kept by AssetReader (a changed tag is a new record there): each one's wire form and JSON text are made once. */
const tagWires = new WeakMap<TagEntity, TagWire>();
const tagJson = new WeakMap<TagWire, string>();

/** A tag's own fields, as an asset and GET /tag/{tag} show them. */
export function tagRecordFields(t: TagEntity): TagWire {
  return {
    id: t.id,
    text: t.text,
    category: t.category,
    created: groupedTimestamp(t.createdAt),
    updated: groupedTimestamp(t.updatedAt),
  };
}

function tagWire(t: TagEntity): TagWire {
  let wire = tagWires.get(t);
  if (!wire) {
    wire = tagRecordFields(t);
    tagWires.set(t, wire);
  }
  return wire;
}

function tagText(wire: TagWire): string {
  let text = tagJson.get(wire);
  if (text === undefined) {
    text = JSON.stringify(wire);
    tagJson.set(wire, text);
  }
  return text;
}

/**
 * An asset's linked records of one kind (`annotations`, `tags`, `websites`): `iterable`, and
 * `indices` (id -> position) when it has items, an empty collection carrying none. `indices` is
 * made only when asked for (a getter, and `toJSON` for JSON.stringify): the asset's JSON writer
 * (assetJson) writes it from the ids, and an asset read makes no object for it (reads are the
 * hot path).
 */
class LinkedCollection<T extends { id: string }> {
  constructor(readonly iterable: T[]) {}

  get indices(): Record<string, number> | undefined {
    if (this.iterable.length === 0) return undefined;
    const indices: Record<string, number> = {};
    this.iterable.forEach((r, i) => (indices[r.id] = i));
    return indices;
  }

  toJSON(): { iterable: T[]; indices?: Record<string, number> } {
    return { iterable: this.iterable, indices: this.indices };
  }
}

/**
 * The JSON text of a linked collection as JSON.stringify writes LinkedCollection's: `items`, the
 * text of its `iterable` array (one JSON.stringify, or the tags' kept texts), and the indices
 * written from `keys`, the records' ids as JSON strings.
 */
function linkedCollectionJson(keys: string[], items: string): string {
  if (keys.length === 0) return '{"iterable":[]}';
  return `{"iterable":${items},"indices":{${keys.map((key, i) => `${key}:${i}`).join(',')}}}`;
}

const quotedIds = (records: Array<{ id: string }>): string[] => records.map((r) => JSON.stringify(r.id));

/** A tag's id as a JSON string, made once per tag record (as its text is). */
const tagKeys = new WeakMap<TagWire, string>();
function tagKey(wire: TagWire): string {
  let key = tagKeys.get(wire);
  if (key === undefined) {
    key = JSON.stringify(wire.id);
    tagKeys.set(wire, key);
  }
  return key;
}

export function websiteWire(w: WebsiteEntity): WebsiteWire {
  return {
    id: w.id,
    url: w.url,
    name: w.name,
    created: groupedTimestamp(w.createdAt),
    updated: groupedTimestamp(w.updatedAt),
  };
}

function assetScore(asset: AssetEntity): AssetScoreWire {
  return {
    manual: asset.scoreManual,
    automatic: asset.scoreAutomatic,
    reuse: asset.scoreReuse ?? 0,
    update: asset.scoreUpdate ?? 0,
    reference: asset.scoreReference ?? 0,
    priority: asset.scorePriority ?? 0,
    searched: asset.scoreSearched ?? 0,
  };
}

function formatBase(format: FormatEntity, withContent: boolean): FormatBase {
  return {
    id: format.id,
    creator: format.creator,
    classification: { generic: format.generic, specific: format.specific },
    role: format.role,
    application: applicationWire(format.application),
    bytes: byteDescriptor(format.bytes),
    created: groupedTimestamp(format.createdAt),
    updated: groupedTimestamp(format.updatedAt),
    fragment: withContent ? { string: { raw: format.raw } } : undefined,
  };
}

/** A format's fields (shared, not copied) with its `asset`: the asset's id, or its flattened form. */
function formatOf<A>(base: FormatBase, asset: A): FormatBase & { asset: A } {
  return {
    id: base.id,
    creator: base.creator,
    classification: base.classification,
    role: base.role,
    application: base.application,
    bytes: base.bytes,
    created: base.created,
    updated: base.updated,
    fragment: base.fragment,
    asset,
  };
}

export function flattenedAssetWire({ asset, formats }: AssetAggregate): FlattenedAssetWire {
  const first = formats[0]?.id ?? '';
  return {
    id: asset.id,
    name: asset.name || undefined,
    creator: asset.creator,
    created: groupedTimestamp(asset.createdAt),
    updated: groupedTimestamp(asset.updatedAt),
    mechanism: asset.mechanism,
    favorited: Boolean(asset.favorited),
    pseudo: Boolean(asset.pseudo),
    score: assetScore(asset),
    formats: indexed(formats.map((f) => ({ id: f.id }))),
    preview: { base: first },
    original: first,
  };
}

/** The complete Asset every endpoint returns; `withContent` false strips format content. */
export function assetWire(aggregate: AssetAggregate, withContent: boolean): AssetWire {
  const { asset, formats } = aggregate;
  const flattened = flattenedAssetWire(aggregate);
  // Each format's fields are mapped once: the preview and the original reference the first.
  const bases = formats.map((f) => formatBase(f, withContent));
  const original: ReferencedFormatWire = { id: formats[0].id, reference: formatOf(bases[0], asset.id) };
  return withJsonWriter<AssetWire>(
    {
      id: flattened.id,
      name: flattened.name,
      creator: flattened.creator,
      created: flattened.created,
      updated: flattened.updated,
      mechanism: flattened.mechanism,
      favorited: flattened.favorited,
      pseudo: flattened.pseudo,
      score: flattened.score,
      formats: { iterable: bases.map((base) => formatOf(base, flattened)) },
      preview: { base: original },
      original,
      annotations: new LinkedCollection(aggregate.annotations.map(annotationWire)),
      tags: new LinkedCollection(aggregate.tags.map(tagWire)),
      websites: new LinkedCollection(aggregate.websites.map(websiteWire)),
      summaries: { iterable: aggregate.summaries.map(summaryReferenceWire) },
      sensitives: aggregate.sensitives.length
        ? { iterable: aggregate.sensitives.map((s) => sensitiveWire(s, flattened)) }
        : undefined,
    },
    assetJson,
  );
}

/**
 * The JSON text of an asset made by `assetWire`, exactly as JSON.stringify writes it, with the
 * first format's fields serialized once: they appear three times (in `formats`, `preview` and
 * `original`), and were most of a read's serialization, itself a third of a read's CPU.
 * Relies on assetWire's layout: the preview's base is the original, whose reference is the
 * first format with `asset` (its last key) the asset's id; each format's `asset` is the
 * flattened asset, whose keys start with the asset's own, up to `formats`.
 */
function assetJson(wire: AssetWire): string {
  const [first, ...others] = wire.formats.iterable;
  const flattened = JSON.stringify(first.asset);
  const original = JSON.stringify(wire.original);
  // original: {"id":<id>,"reference":{<first format's fields>,"asset":<asset id>}}
  const fields = original.slice(
    `{"id":${JSON.stringify(wire.original.id)},"reference":`.length,
    -`,"asset":${JSON.stringify(wire.id)}}}`.length,
  );
  const formats = [`${fields},"asset":${flattened}}`, ...others.map((format) => JSON.stringify(format))];
  const { annotations: a, tags: t, websites: w } = wire;
  const annotations = linkedCollectionJson(quotedIds(a.iterable), JSON.stringify(a.iterable));
  const tags = linkedCollectionJson(t.iterable.map(tagKey), `[${t.iterable.map(tagText).join(',')}]`);
  const websites = linkedCollectionJson(quotedIds(w.iterable), JSON.stringify(w.iterable));
  const sensitives = wire.sensitives ? `,"sensitives":${JSON.stringify(wire.sensitives)}` : '';
  const links = `"annotations":${annotations},"tags":${tags},"websites":${websites},"summaries":${JSON.stringify(wire.summaries)}${sensitives}}`;
  return `${flattened.slice(0, flattened.indexOf(',"formats":'))},"formats":{"iterable":[${formats.join(',')}]},"preview":{"base":${original}},"original":${original},${links}`;
}

export function formatsWire(aggregate: AssetAggregate, withContent: boolean): FormatsWire {
  return assetWire(aggregate, withContent).formats;
}

export class PseudoAssetsWire {
  identifiers: FlattenedAssetsWire;
}

class TextLocationWire {
  text: string;
  start: number;
  end: number;
}
class SensitiveMetadataWire {
  match?: { group: TextLocationWire };
  entropy?: number;
}
/** A secret found in an asset (SDK Sensitive): its kind and where it is; `text` is the secret masked, never the secret. */
export class SensitiveWire {
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  asset: FlattenedAssetWire;
  text: string;
  mechanism: string;
  category: string;
  severity: string;
  name: string;
  description: string;
  metadata: SensitiveMetadataWire;
  interactions: number;
}
export class SensitivesWire {
  iterable: SensitiveWire[];
}

/** `asset`: the FlattenedAsset of the asset it was found in (the SDK's Sensitive requires the whole reference). */
export function sensitiveWire(s: SensitiveEntity, asset: FlattenedAssetWire): SensitiveWire {
  return {
    id: s.id,
    created: groupedTimestamp(s.createdAt),
    updated: groupedTimestamp(s.updatedAt),
    asset,
    text: s.text,
    mechanism: s.mechanism,
    category: s.category,
    severity: s.severity,
    name: s.name,
    description: s.description,
    metadata: {
      match: { group: { text: s.text, start: s.matchStart, end: s.matchEnd } },
      entropy: s.entropy ?? undefined,
    },
    interactions: 0,
  };
}
