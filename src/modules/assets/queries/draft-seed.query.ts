import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LanguageDetector } from '../../intelligence/language-detector.service';
import { AssetEnrichment } from '../asset-enrichment';
import { seedText, tagKey } from '../asset-text';
import { SeedDto, SeededAssetTagDto } from '../dto/seed.dto';

/**
 * The seed as it would be saved, enriched and persisted nowhere: the format's classification
 * (detected unless given), the name and one-line description a create would generate when none
 * is given, and suggested tags (the language, then key terms) after the given ones, for the
 * client to choose from. An image seed comes back unchanged.
 */
export class DraftSeedQuery extends Query<SeedDto> {
  constructor(
    readonly seed: SeedDto | undefined,
    readonly transferables: boolean,
  ) {
    super();
  }
}

/** Binary content (bytes) or a seed classified as an image: nothing to draft from. */
function isImage(seed: SeedDto | undefined): boolean {
  const format = seed?.asset?.format as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!format) return false;
  return format.classification?.generic === 'IMAGE' || format.file?.bytes != null || format.fragment?.bytes != null;
}

@QueryHandler(DraftSeedQuery)
export class DraftSeedHandler implements IQueryHandler<DraftSeedQuery> {
  constructor(
    private readonly detector: LanguageDetector,
    private readonly enrichment: AssetEnrichment,
  ) {}

  async execute({ seed, transferables }: DraftSeedQuery): Promise<SeedDto> {
    if (isImage(seed)) return seed!;
    const text = seedText(seed);
    const asset = seed!.asset!;
    const given = asset.format.classification;
    const detected = given?.generic && given?.specific ? null : await this.detector.detect(text);
    const classification = {
      ...given,
      generic: given?.generic ?? detected!.generic,
      specific: given?.specific ?? detected!.specific,
    };

    const metadata = asset.metadata;
    const lacks = AssetEnrichment.lacking(metadata);
    const suggested = await this.enrichment.suggest(text, classification, { ...lacks, tags: true });
    const name = metadata?.name?.trim() || suggested.name;
    const tags: SeededAssetTagDto[] = [...(metadata?.tags ?? [])];
    const seen = new Set(tags.map((t) => tagKey(t.text)));
    for (const tag of AssetEnrichment.asInputs(suggested).tags) {
      if (seen.has(tagKey(tag.text))) continue;
      seen.add(tagKey(tag.text));
      tags.push(tag);
    }
    const annotations = [...(metadata?.annotations ?? []), ...AssetEnrichment.asInputs(suggested).annotations];

    const format = { ...asset.format, classification };
    if (!transferables) {
      delete format.fragment;
      delete format.file;
    } else {
      // The language also where clients read it back from a draft: the fragment's or file's
      // FragmentMetadata.ext (Raycast's clipboard and browser history show it).
      const withExt = <T extends object>(part: T): T => ({
        ...part,
        metadata: { ext: classification.specific, ...(part as { metadata?: object }).metadata },
      });
      if (format.fragment) format.fragment = withExt(format.fragment);
      if (format.file) format.file = withExt(format.file);
    }
    return {
      ...seed,
      type: seed!.type ?? 'SEEDED_ASSET',
      asset: {
        ...asset,
        format,
        metadata: { ...metadata, ...(name ? { name } : {}), tags, ...(annotations.length ? { annotations } : {}) },
      },
    };
  }
}
