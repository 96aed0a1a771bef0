import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CodeTerms } from '../../intelligence/code-terms';
import { LanguageDetector } from '../../intelligence/language-detector.service';
import { seedText } from '../asset-text';
import { SeedDto, SeededAssetTagDto } from '../dto/seed.dto';

/**
 * The seed as it would be saved, enriched and persisted nowhere: the format's classification
 * (detected unless given), a suggested name when none is given, and suggested tags (the
 * language, then key terms) after the given ones. An image seed comes back unchanged.
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
  const format = seed?.asset?.format as (Record<string, any> | undefined); // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!format) return false;
  return format.classification?.generic === 'IMAGE' || format.file?.bytes != null || format.fragment?.bytes != null;
}

const SUGGESTED_TAGS = 5;

@QueryHandler(DraftSeedQuery)
export class DraftSeedHandler implements IQueryHandler<DraftSeedQuery> {
  constructor(
    private readonly detector: LanguageDetector,
    private readonly terms: CodeTerms,
  ) {}

  async execute({ seed, transferables }: DraftSeedQuery): Promise<SeedDto> {
    if (isImage(seed)) return seed!;
    const text = seedText(seed);
    const asset = seed!.asset!;
    const given = asset.format.classification;
    const detected = given?.generic && given?.specific ? null : await this.detector.detect(text);
    const classification = { ...given, generic: given?.generic ?? detected!.generic, specific: given?.specific ?? detected!.specific };

    const metadata = asset.metadata;
    const name = metadata?.name?.trim() || this.terms.suggestName(text, classification.specific);
    const tags: SeededAssetTagDto[] = [...(metadata?.tags ?? [])];
    const seen = new Set(tags.map((t) => t.text.trim().toLowerCase()));
    for (const tag of this.terms.suggestTags(text, classification.specific, SUGGESTED_TAGS)) {
      if (seen.has(tag)) continue;
      seen.add(tag);
      tags.push({ text: tag, mechanism: 'AUTOMATIC' });
    }

    const format = { ...asset.format, classification };
    if (!transferables) {
      delete format.fragment;
      delete format.file;
    }
    return {
      ...seed,
      type: seed!.type ?? 'SEEDED_ASSET',
      asset: {
        ...asset,
        format,
        metadata: { ...metadata, ...(name ? { name } : {}), tags },
      },
    };
  }
}
