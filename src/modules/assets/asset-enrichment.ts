import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CodeTerms } from '../intelligence/code-terms';
import { understandSnippet } from '../intelligence/text/snippet-kinds';
import { tagKey } from './asset-text';
import { AssetReader } from './asset.reader';
import { AnnotationInput, AssetWriter } from './asset.writer';
import { SeededAssetMetadataDto } from './dto/seed.dto';
import { withoutSecrets } from './sensitives/secret-detector';

/** Tags suggested for a new asset, at most. */
const SUGGESTED_TAGS = 5;

/** The parts of an asset Trove is to generate. */
export interface Parts {
  name: boolean;
  description: boolean;
  tags: boolean;
}

/** An offline name, one-line description and tags of a snippet, for the parts asked for. */
export interface Generated {
  name?: string;
  description?: string;
  tags: string[];
}

/** A language label as stored: `generic` CODE, TEXT, IMAGE, ...; `specific` a language code. */
interface Label {
  generic: string;
  specific: string;
}

/**
 * Gives an asset what a client saved it without (the Pieces CLI's `create` sends no name,
 * description or tags), offline: a name from what the snippet defines or says, a one-line
 * description of what it is (its own lead comment quoted, never its content repeated) and tags
 * (its language, then key terms, AUTOMATIC). What the client gave is kept.
 *
 * What was generated is recorded (AssetEnrichmentEntity), so that the generated parts follow
 * the content: when the text or the language changes, a part the asset lacks or still shows
 * as generated is generated again, and a part the user changed is left alone. Cheap (about
 * 0.05 ms for a typical snippet): it runs inside the create once the language is known, else
 * with the language's refinement after commit (FormatClassifier).
 */
@Injectable()
export class AssetEnrichment {
  constructor(
    private readonly terms: CodeTerms,
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
  ) {}

  /** The parts of a seed's metadata Trove is to generate: those it leaves out. */
  static lacking(metadata: SeededAssetMetadataDto | undefined): Parts {
    return {
      name: !metadata?.name?.trim(),
      description: !metadata?.annotations?.some((a) => a.type === 'DESCRIPTION'),
      tags: !metadata?.tags?.length,
    };
  }

  /**
   * What Trove would generate from `text` for the parts asked for (nothing for binary content).
   * The secrets found in the text are left out first: no name, description or tag quotes a part of one.
   */
  async suggest(raw: string, label: Label, parts: Parts): Promise<Generated> {
    if (!raw.trim() || (label.generic !== 'CODE' && label.generic !== 'TEXT')) return { tags: [] };
    const text = await withoutSecrets(raw);
    // A query, a command, a manifest, a stylesheet, a page: named after what it is about.
    const kind = parts.name || parts.description || parts.tags ? understandSnippet(text, label.specific) : undefined;
    return {
      name: parts.name ? (kind?.name ?? this.terms.suggestName(text, label.specific)) : undefined,
      description: parts.description ? (kind?.description ?? this.terms.describeSnippet(text, label.generic, label.specific)) : undefined,
      tags: parts.tags ? (kind ? this.kindTags(kind.tags, label.specific) : this.terms.suggestTags(text, label.specific, SUGGESTED_TAGS)) : [],
    };
  }

  /** A kind's tags after the language's, as the other tags are. */
  private kindTags(tags: string[], language: string): string[] {
    const label = this.terms.languageLabel(language)?.toLowerCase();
    return [...new Set([...(label && label !== 'text' ? [label] : []), ...tags])].slice(0, SUGGESTED_TAGS);
  }

  /** The description and tags of `generated` in the form the writer takes, marked AUTOMATIC. */
  static asInputs(generated: Generated): {
    annotations: Array<AnnotationInput & { type: 'DESCRIPTION'; mechanism: 'AUTOMATIC' }>;
    tags: Array<{ text: string; mechanism: 'AUTOMATIC' }>;
  } {
    return {
      annotations: generated.description ? [{ type: 'DESCRIPTION' as const, text: generated.description, mechanism: 'AUTOMATIC' as const }] : [],
      tags: generated.tags.map((text) => ({ text, mechanism: 'AUTOMATIC' as const })),
    };
  }

  /** Records what was generated for a new asset, in its create's transaction; nothing when nothing was. */
  async recordNew(em: EntityManager, assetId: string, generated: Generated): Promise<void> {
    if (!generated.name && !generated.description && generated.tags.length === 0) return;
    await this.writer.insertEnrichment(em, {
      assetId,
      name: generated.name ?? null,
      description: generated.description ?? null,
      tags: JSON.stringify(generated.tags),
    });
  }

  /**
   * Makes an asset's generated parts follow its content, inside the caller's transaction, after
   * its text or language changed (or its language was first detected): each part the asset
   * lacks, or still shows as Trove generated it, is generated from `text`; the user's own tags
   * stay beside the generated ones. The caller reindexes and announces the asset.
   */
  async follow(em: EntityManager, assetId: string, text: string, label: Label): Promise<void> {
    const aggregate = await this.reader.live(em, assetId);
    if (!aggregate) return;
    const record = await this.reader.enrichmentOf(em, assetId);
    const before: Generated = {
      name: record?.name ?? undefined,
      description: record?.description ?? undefined,
      tags: record ? (JSON.parse(record.tags) as string[]) : [],
    };
    const name = aggregate.asset.name;
    const descriptions = aggregate.annotations.filter((a) => a.type === 'DESCRIPTION');
    const shownTags = aggregate.tags.map((t) => t.text);
    const generatedTags = new Set(before.tags.map(tagKey));
    const ours: Parts = {
      name: !name || name === before.name,
      description: descriptions.length === 0 || descriptions.some((a) => a.text === before.description),
      tags: shownTags.length === 0 || shownTags.some((t) => generatedTags.has(tagKey(t))),
    };
    const next = await this.suggest(text, label, ours);

    if (next.name && next.name !== name) await this.writer.updateAsset(em, assetId, { name: next.name });
    if (next.description) {
      const mine = descriptions.find((a) => a.text === before.description);
      if (!mine) await this.writer.addAnnotations(em, assetId, AssetEnrichment.asInputs({ description: next.description, tags: [] }).annotations);
      else if (mine.text !== next.description) await this.writer.updateAnnotationText(em, mine.id, next.description);
    }
    let tags: string[] = [];
    if (ours.tags) {
      const users = shownTags.filter((t) => !generatedTags.has(tagKey(t)));
      const taken = new Set(users.map(tagKey));
      tags = next.tags.filter((t) => !taken.has(tagKey(t)));
      const all = [...users, ...tags];
      if (all.length !== shownTags.length || all.some((t, i) => t !== shownTags[i])) {
        await this.writer.setTags(em, assetId, [...users.map((text) => ({ text })), ...AssetEnrichment.asInputs({ tags }).tags]);
      }
    }
    // Nothing generated now or before (the user wrote every part): nothing to record.
    if (!record && !next.name && !next.description && tags.length === 0) return;
    await this.writer.saveEnrichment(em, { assetId, name: next.name ?? null, description: next.description ?? null, tags: JSON.stringify(tags) });
  }
}
