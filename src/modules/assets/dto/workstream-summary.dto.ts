import { IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { GroupedTimestampDto } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { ApplicationDto } from '../../system/dto/application.dto';
import type { NewWorkstreamSummary } from '../commands/create-workstream-summary.command';
import { SeededAnnotationDto } from './seed.dto';

/** AnchorTypeEnum of the SDK. */
const ANCHOR_TYPES = ['UNKNOWN', 'FILE', 'DIRECTORY'] as const;

/** FlattenedWebsite: its `url` is a link of the summary. */
export class SummaryWebsiteReferenceDto {
  @IsString()
  @MaxLength(4096)
  url: string;
}
PassThrough(SummaryWebsiteReferenceDto.prototype, [
  'schema',
  'id',
  'assets',
  'name',
  'created',
  'updated',
  'deleted',
  'mechanisms',
  'interactions',
  'persons',
  'conversations',
  'score',
  'summaries',
  'messages',
  'annotations',
  'workstream_events',
  'sources',
  'source_windows',
  'tags',
]);

/** ReferencedWebsite: a link to save is given by its `reference` (the id of a website Trove does not keep is not enough). */
export class SummaryReferencedWebsiteDto {
  @IsString()
  @MaxLength(64)
  id: string;

  @Nested(() => SummaryWebsiteReferenceDto, { optional: true })
  reference?: SummaryWebsiteReferenceDto;
}
PassThrough(SummaryReferencedWebsiteDto.prototype, ['schema']);

export class SummaryWebsitesDto {
  @Nested(() => SummaryReferencedWebsiteDto, { each: true })
  iterable: SummaryReferencedWebsiteDto[];
}
PassThrough(SummaryWebsitesDto.prototype, ['schema', 'indices', 'score']);

/** FlattenedAnchorPoint: its `fullpath` is the path. */
export class SummaryAnchorPointReferenceDto {
  @IsString()
  @MaxLength(4096)
  fullpath: string;
}
PassThrough(SummaryAnchorPointReferenceDto.prototype, [
  'schema',
  'id',
  'verified',
  'created',
  'updated',
  'deleted',
  'platform',
  'anchor',
  'score',
]);

export class SummaryAnchorPointDto {
  @IsString()
  @MaxLength(64)
  id: string;

  @Nested(() => SummaryAnchorPointReferenceDto, { optional: true })
  reference?: SummaryAnchorPointReferenceDto;
}
PassThrough(SummaryAnchorPointDto.prototype, ['schema']);

export class SummaryAnchorPointsDto {
  @Nested(() => SummaryAnchorPointDto, { each: true })
  iterable: SummaryAnchorPointDto[];
}
PassThrough(SummaryAnchorPointsDto.prototype, ['schema', 'indices', 'score']);

/** FlattenedAnchor: a FILE (or UNKNOWN) anchor's paths are files of the summary, a DIRECTORY anchor's path its project. */
export class SummaryAnchorReferenceDto {
  @OneOf(ANCHOR_TYPES)
  type: (typeof ANCHOR_TYPES)[number];

  @Nested(() => SummaryAnchorPointsDto)
  points: SummaryAnchorPointsDto;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string;
}
PassThrough(SummaryAnchorReferenceDto.prototype, [
  'schema',
  'id',
  'watch',
  'created',
  'updated',
  'deleted',
  'assets',
  'annotations',
  'conversations',
  'score',
  'summaries',
  'persons',
  'messages',
  'workstream_events',
  'sources',
  'tags',
]);

export class SummaryReferencedAnchorDto {
  @IsString()
  @MaxLength(64)
  id: string;

  @Nested(() => SummaryAnchorReferenceDto, { optional: true })
  reference?: SummaryAnchorReferenceDto;
}
PassThrough(SummaryReferencedAnchorDto.prototype, ['schema']);

export class SummaryAnchorsDto {
  @Nested(() => SummaryReferencedAnchorDto, { each: true })
  iterable: SummaryReferencedAnchorDto[];
}
PassThrough(SummaryAnchorsDto.prototype, ['schema', 'indices', 'score']);

/** ReferencedAsset: an existing asset to link. */
export class SummaryAssetReferenceDto {
  @IsUUID()
  id: string;
}
PassThrough(SummaryAssetReferenceDto.prototype, ['schema', 'reference']);

export class SummaryAssetsDto {
  @Nested(() => SummaryAssetReferenceDto, { optional: true, each: true })
  iterable?: SummaryAssetReferenceDto[];
}
PassThrough(SummaryAssetsDto.prototype, ['schema', 'indices', 'score']);

/** FlattenedRange: its `from` (or else its `to`) is the time the summary is about. */
export class SummaryRangeReferenceDto {
  @Nested(() => GroupedTimestampDto, { optional: true })
  from?: GroupedTimestampDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  to?: GroupedTimestampDto;
}
PassThrough(SummaryRangeReferenceDto.prototype, [
  'schema',
  'id',
  'score',
  'created',
  'updated',
  'between',
  'summaries',
  'conversations',
  'messages',
]);

export class SummaryReferencedRangeDto {
  @IsString()
  @MaxLength(64)
  id: string;

  @Nested(() => SummaryRangeReferenceDto, { optional: true })
  reference?: SummaryRangeReferenceDto;
}
PassThrough(SummaryReferencedRangeDto.prototype, ['schema']);

export class SummaryRangesDto {
  @Nested(() => SummaryReferencedRangeDto, { each: true })
  iterable: SummaryReferencedRangeDto[];
}
PassThrough(SummaryRangesDto.prototype, ['schema', 'indices', 'score', 'continuous']);

/** Applications: the first one's name is the summary's source. */
export class SummaryApplicationsDto {
  @Nested(() => ApplicationDto, { each: true })
  iterable: ApplicationDto[];
}
PassThrough(SummaryApplicationsDto.prototype, ['schema']);

/**
 * The input of POST /workstream_summaries/create (SeededWorkstreamSummary): `name` is the title;
 * its annotations of type SUMMARY and DESCRIPTION are the text and the description; `websites`
 * (each with its `reference.url`) the links; `anchors` (each with its `reference.points`) the
 * files, and a DIRECTORY anchor the project; `assets` the assets to link; the first of
 * `applications` names its source; the first of `ranges` (its `from`, else its `to`) is the time
 * it is about. Bounds as CreateWorkstreamSummaryCommand's.
 */
export class SeededWorkstreamSummaryDto {
  @IsString()
  @MaxLength(1024)
  name: string;

  @Nested(() => SeededAnnotationDto, { optional: true, each: true })
  annotations?: SeededAnnotationDto[];

  @Nested(() => SummaryWebsitesDto, { optional: true })
  websites?: SummaryWebsitesDto;

  @Nested(() => SummaryAnchorsDto, { optional: true })
  anchors?: SummaryAnchorsDto;

  @Nested(() => SummaryAssetsDto, { optional: true })
  assets?: SummaryAssetsDto;

  @Nested(() => SummaryApplicationsDto, { optional: true })
  applications?: SummaryApplicationsDto;

  @Nested(() => SummaryRangesDto, { optional: true })
  ranges?: SummaryRangesDto;
}
PassThrough(SeededWorkstreamSummaryDto.prototype, [
  'schema',
  'events',
  'model',
  'conversations',
  'persons',
  'tags',
  'workstreamSummariesVector',
  'processing',
  'favorited',
  'mechanism',
]);

/**
 * What a SeededWorkstreamSummary says, as the command takes it. A 400 for what it cannot keep:
 * no SUMMARY annotation (the text), annotations of other types, a website without its
 * `reference.url`, an anchor without its `reference.points`, more than one DIRECTORY anchor.
 * Several SUMMARY (or DESCRIPTION) annotations are joined by a blank line.
 */
export function newSummaryOfSeed(seed: SeededWorkstreamSummaryDto): NewWorkstreamSummary {
  const problems: string[] = [];
  const texts: Record<string, string[]> = { SUMMARY: [], DESCRIPTION: [] };
  (seed.annotations ?? []).forEach((a, i) => {
    if (a.type in texts) texts[a.type].push(a.text);
    else
      problems.push(
        `annotations[${i}]: only annotations of type SUMMARY (the text) and DESCRIPTION (the description) are kept, not ${a.type}`,
      );
  });
  if (!texts.SUMMARY.length)
    problems.push('annotations must hold the text of the summary: an annotation of type SUMMARY');
  const links: string[] = [];
  (seed.websites?.iterable ?? []).forEach((w, i) => {
    if (w.reference) links.push(w.reference.url);
    else problems.push(`websites.iterable[${i}] needs its reference.url`);
  });
  const files: string[] = [];
  const projects: string[] = [];
  (seed.anchors?.iterable ?? []).forEach((anchor, i) => {
    const paths = (anchor.reference?.points.iterable ?? []).map((p) => p.reference?.fullpath);
    if (!anchor.reference || !paths.length || paths.some((p) => p === undefined)) {
      return void problems.push(`anchors.iterable[${i}] needs its reference.points, each with its reference.fullpath`);
    }
    (anchor.reference.type === 'DIRECTORY' ? projects : files).push(...(paths as string[]));
  });
  if (projects.length > 1) problems.push('anchors: at most one DIRECTORY anchor (the project) with one point');
  if (problems.length) throw new InvalidInput(problems);
  const description = texts.DESCRIPTION.join('\n\n');
  const range = seed.ranges?.iterable[0]?.reference;
  const about = range?.from?.value ?? range?.to?.value;
  return {
    name: seed.name,
    text: texts.SUMMARY.join('\n\n'),
    ...(description ? { description } : {}),
    ...(projects.length ? { project: projects[0] } : {}),
    files,
    links,
    ...(seed.applications?.iterable.length ? { source: seed.applications.iterable[0].name } : {}),
    ...(about ? { about } : {}),
    assetIds: (seed.assets?.iterable ?? []).map((a) => a.id),
  };
}

/** FullTextSearchOptions: `exact` keeps only the hits containing the whole query. */
export class FullTextSearchOptionsDto {
  @IsOptional()
  @IsBoolean()
  exact?: boolean;
}
PassThrough(FullTextSearchOptionsDto.prototype, ['schema', 'similarity']);

/** SearchEngines: the engines of a SearchInput, or an engine's nested `operations` (declared first: SearchEngine's metadata names it). */
export class SearchEnginesDto {
  @Nested(() => SearchEngineDto, { each: true })
  iterable: SearchEngineDto[];
}
PassThrough(SearchEnginesDto.prototype, ['schema', 'type']);

/** SearchEngine: its `query` (and those of its nested `operations`) are searched for. */
export class SearchEngineDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  query?: string;

  @Nested(() => FullTextSearchOptionsDto, { optional: true })
  full_text?: FullTextSearchOptionsDto;

  @Nested(() => SearchEnginesDto, { optional: true })
  operations?: SearchEnginesDto;
}
PassThrough(SearchEngineDto.prototype, ['schema', 'embeddings', 'temporal', 'workstream']);

/** The input of POST /workstream_summaries/search (SearchInput). */
export class SearchInputDto {
  @Nested(() => SearchEnginesDto)
  engines: SearchEnginesDto;
}
PassThrough(SearchInputDto.prototype, ['schema']);

/** The text a SearchInput searches for: the queries of its engines (nested operations included), in order; whether one asks for exact matches. */
export function searchOfInput(input: SearchInputDto): { query: string; exact: boolean } {
  const queries: string[] = [];
  let exact = false;
  const walk = (engines: SearchEnginesDto | undefined, depth: number) => {
    if (!engines || depth > 8) return;
    for (const engine of engines.iterable) {
      if (engine.query) queries.push(engine.query);
      if (engine.full_text?.exact) exact = true;
      walk(engine.operations, depth + 1);
    }
  };
  walk(input.engines, 0);
  return { query: queries.join(' '), exact };
}
