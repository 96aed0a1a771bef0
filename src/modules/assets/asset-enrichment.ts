import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CodeTerms } from '../intelligence/code-terms';
import { understandSnippet } from '../intelligence/text/snippet-kinds';
import { SnippetMetadata } from '../intelligence/text/snippet-metadata';
import type { AnnotationEntity } from './annotation.entity';
import { tagKey } from './asset-text';
import { AssetReader } from './asset.reader';
import { AnnotationInput, AssetWriter } from './asset.writer';
import { SeededAssetMetadataDto } from './dto/seed.dto';
import { withoutSecrets } from './sensitives/secret-detector';
import type { AssetAggregate } from './wire/asset.wire';

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
      description: parts.description
        ? (kind?.description ?? this.terms.describeSnippet(text, label.generic, label.specific))
        : undefined,
      tags: parts.tags
        ? kind
          ? this.kindTags(kind.tags, label.specific)
          : this.terms.suggestTags(text, label.specific, SUGGESTED_TAGS)
        : [],
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
      annotations: generated.description
        ? [{ type: 'DESCRIPTION' as const, text: generated.description, mechanism: 'AUTOMATIC' as const }]
        : [],
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
   * stay beside the generated ones. The caller reindexes and announces the asset (and queues the
   * model's enrichment, ModelEnrichment, for the parts still generated).
   */
  async follow(em: EntityManager, assetId: string, text: string, label: Label): Promise<void> {
    const standing = await this.standing(em, assetId);
    if (!standing) return;
    await this.write(em, assetId, standing, await this.suggest(text, label, standing.ours));
  }

  /**
   * The parts of an asset a model is to generate, and what it generates them from: those it
   * lacks or still shows as Trove generated them; null when there are none, or when its text
   * is not code or prose.
   */
  async modelJob(
    em: EntityManager,
    assetId: string,
  ): Promise<{ raw: string; language: string | undefined; parts: Parts } | null> {
    const standing = await this.standing(em, assetId);
    const original = standing?.aggregate.formats.find((f) => f.position === 0);
    if (!standing || !original || !original.raw.trim() || (original.generic !== 'CODE' && original.generic !== 'TEXT'))
      return null;
    if (!standing.ours.name && !standing.ours.description && !standing.ours.tags) return null;
    return { raw: original.raw, language: this.terms.languageLabel(original.specific), parts: standing.ours };
  }

  /**
   * Applies what a model proposed for an asset, inside the caller's transaction, to the parts
   * that still show what Trove generated (a user's edit made while the model was thinking wins),
   * and records it as generated; only while its text is still `raw` (a later edit queues its own
   * run). A part the model gave nothing for keeps what it shows. True when the asset changed:
   * the caller reindexes and announces it.
   */
  async adopt(em: EntityManager, assetId: string, raw: string, proposed: SnippetMetadata): Promise<boolean> {
    const standing = await this.standing(em, assetId);
    const original = standing?.aggregate.formats.find((f) => f.position === 0);
    if (!standing || original?.raw !== raw) return false;
    const { ours, before, shownTags, generatedTags } = standing;
    const next: Generated = {
      name: ours.name ? (proposed.name ?? before.name) : undefined,
      description: ours.description ? (proposed.description ?? before.description) : undefined,
      tags: !ours.tags
        ? []
        : proposed.tags.length
          ? this.kindTags(proposed.tags, original.specific)
          : shownTags.filter((t) => generatedTags.has(tagKey(t))),
    };
    return this.write(em, assetId, standing, next);
  }

  /** What an asset shows and what Trove generated for it; null for a deleted asset. */
  private async standing(em: EntityManager, assetId: string): Promise<Standing | null> {
    const aggregate = await this.reader.live(em, assetId);
    if (!aggregate) return null;
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
    return { aggregate, recorded: Boolean(record), before, ours, descriptions, shownTags, generatedTags };
  }

  /** Writes `next` over the parts of `standing` that are Trove's, and records it as generated; true when the asset changed. */
  private async write(em: EntityManager, assetId: string, standing: Standing, next: Generated): Promise<boolean> {
    const { aggregate, before, ours, descriptions, shownTags, generatedTags } = standing;
    const name = aggregate.asset.name;
    let changed = false;
    if (next.name && next.name !== name) {
      await this.writer.updateAsset(em, assetId, { name: next.name });
      changed = true;
    }
    if (next.description) {
      const mine = descriptions.find((a) => a.text === before.description);
      if (!mine)
        await this.writer.addAnnotations(
          em,
          assetId,
          AssetEnrichment.asInputs({ description: next.description, tags: [] }).annotations,
        );
      else if (mine.text !== next.description) await this.writer.updateAnnotationText(em, mine.id, next.description);
      changed ||= mine?.text !== next.description;
    }
    let tags: string[] = [];
    if (ours.tags) {
      const users = shownTags.filter((t) => !generatedTags.has(tagKey(t)));
      const taken = new Set(users.map(tagKey));
      tags = next.tags.filter((t) => !taken.has(tagKey(t)));
      const all = [...users, ...tags];
      if (all.length !== shownTags.length || all.some((t, i) => t !== shownTags[i])) {
        await this.writer.setTags(em, assetId, [
          ...users.map((text) => ({ text })),
          ...AssetEnrichment.asInputs({ tags }).tags,
        ]);
        changed = true;
      }
    }
    // Nothing generated now or before (the user wrote every part): nothing to record.
    if (!standing.recorded && !next.name && !next.description && tags.length === 0) return changed;
    await this.writer.saveEnrichment(em, {
      assetId,
      name: next.name ?? null,
      description: next.description ?? null,
      tags: JSON.stringify(tags),
    });
    return changed;
  }
}

/** An asset as it stands, against what Trove generated for it. */
interface Standing {
  aggregate: AssetAggregate;
  recorded: boolean;
  before: Generated;
  /** The parts that are Trove's: lacking, or showing what it generated. */
  ours: Parts;
  descriptions: AnnotationEntity[];
  shownTags: string[];
  generatedTags: Set<string>;
}
