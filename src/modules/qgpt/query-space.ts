import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { Database } from '../../common/database/database.service';
import { InvalidInput, NotFound } from '../../common/errors/domain-errors';
import { textOf } from '../assets/asset-text';
import { AssetReader } from '../assets/asset.reader';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { ConversationReader } from '../conversations/conversation.reader';
import { namedText } from '../intelligence/text/passage-ranking';
import { Retrieval } from '../search/retrieval.service';
import { QGPTRelevanceInputDto, RelevantQGPTSeedDto } from './dto/qgpt.dto';
import { LocalFiles } from './local-files';
import { Document, Snippet, SnippetCache } from './snippet-cache';

/** Documents to rank the passages of, each with its prior. */
export interface Space {
  docs: Document[];
  priors: number[];
}

/**
 * What a question is asked over: the query spaces of a relevance input (local files, anchors,
 * seeds, assets, the whole store through search's Retrieval), and the snippets a question gives.
 */
@Injectable()
export class QuerySpace {
  constructor(
    private readonly db: Database,
    private readonly retrieval: Retrieval,
    private readonly assets: AssetReader,
    private readonly files: LocalFiles,
    private readonly cache: SnippetCache,
    private readonly conversations: ConversationReader,
  ) {}

  /**
   * The documents of the query spaces the input names, together: local paths (given, or the
   * files of anchors), seeds, assets and the whole store (`options.database`). the interface asks for exactly one, but the
   * official CLI sends none when nothing is attached to a question and several when files and
   * materials both are: no space means the whole store, several mean their union.
   * `searchQuery` is what the store is searched with (a follow-up made standalone by the caller).
   */
  async of(input: QGPTRelevanceInputDto, searchQuery = input.query): Promise<Space> {
    const explicit =
      input.paths !== undefined ||
      input.anchors !== undefined ||
      input.seeds !== undefined ||
      input.assets !== undefined;
    const parts: Space[] = [];
    const paths = [...(input.paths ?? [])];
    if (input.paths?.length === 0) throw new InvalidInput('paths must not be empty');
    if (input.anchors?.iterable.length) {
      const ids = input.anchors.iterable.map((a) => a.id.toLowerCase());
      paths.push(...(await this.db.read((em) => this.conversations.anchorPaths(em, ids))));
    }
    if (paths.length) {
      parts.push({
        docs: (await this.files.read([...new Set(paths)])).map((d) => ({
          text: d.text,
          path: d.path,
          specific: extname(d.path).slice(1).toLowerCase() || undefined,
        })),
        priors: [],
      });
    }
    if (input.seeds) parts.push({ docs: input.seeds.iterable.map(seedDocument), priors: [] });
    if (input.assets) {
      const ids = [...new Set(input.assets.iterable.map((a) => a.id.toLowerCase()))];
      const live = ids.length ? await this.db.read((em) => this.assets.liveAggregates(em, ids)) : [];
      const aggregates = new Map(live.map((a) => [a.asset.id, a]));
      const missing = ids.filter((id) => !aggregates.has(id));
      if (missing.length)
        throw new NotFound(
          `asset ${missing[0]} not found${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}`,
        );
      parts.push({ docs: ids.map((id) => assetDocument(aggregates.get(id)!)), priors: [] });
    }
    if (input.options?.database === true || !explicit) parts.push(await this.retrieval.candidates(searchQuery));
    if (parts.length === 1) return parts[0];
    // Priors only rank the store's candidates among themselves; given documents count fully.
    return {
      docs: parts.flatMap((p) => p.docs),
      priors: parts.flatMap((p) => (p.priors.length ? p.priors : p.docs.map(() => 1))),
    };
  }

  /** /qgpt/question's relevant seeds: ids from relevance, or seeds with fragment text. */
  given(relevant: RelevantQGPTSeedDto[]): Snippet[] {
    return relevant.map((r, i) => {
      if (r.id) {
        const cached = this.cache.get(r.id);
        if (cached) return cached;
        if (!r.seed)
          throw new InvalidInput(
            `relevant.iterable[${i}].id ${r.id} is not a snippet id returned by /qgpt/relevance (or it has expired); send the snippet as a seed`,
          );
      }
      const text = textOf(r.seed?.asset?.format?.fragment?.string);
      if (text === undefined)
        throw new InvalidInput(
          `relevant.iterable[${i}] needs an id returned by /qgpt/relevance or a seed with asset.format.fragment.string.raw`,
        );
      if (text.includes('\u0000')) throw new InvalidInput(`relevant.iterable[${i}] must not contain NUL characters`);
      return { id: r.id ?? randomUUID(), text, score: r.score ?? 1, assetId: r.asset?.id, path: r.path };
    });
  }
}

type Seed = NonNullable<QGPTRelevanceInputDto['seeds']>['iterable'][number];

function seedDocument(seed: Seed, i: number): Document {
  const text = textOf(seed.asset?.format?.fragment?.string);
  if (text === undefined)
    throw new InvalidInput(
      `seeds.iterable[${i}] has no asset.format.fragment.string.raw (only fragment strings are used)`,
    );
  if (text.includes('\u0000')) throw new InvalidInput(`seeds.iterable[${i}] must not contain NUL characters`);
  const classification = seed.asset?.format?.classification;
  // A file the seed stands for (the CLI's commit sends each file's diff with its anchor).
  const anchors = (seed.asset?.metadata as { anchors?: Array<{ fullpath?: unknown }> } | undefined)?.anchors;
  const path = Array.isArray(anchors) && typeof anchors[0]?.fullpath === 'string' ? anchors[0].fullpath : undefined;
  return {
    text,
    path,
    title: seed.asset?.metadata?.name ?? undefined,
    generic: classification?.generic,
    specific: classification?.specific,
  };
}

function assetDocument(aggregate: AssetAggregate): Document {
  const first = aggregate.formats[0];
  const text = namedText(aggregate.asset.name, first?.raw);
  return {
    text,
    assetId: aggregate.asset.id,
    title: aggregate.asset.name ?? undefined,
    generic: first?.generic,
    specific: first?.specific,
  };
}
