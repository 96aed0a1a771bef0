import { Identified, indexed } from '../../../common/wire/common.wire';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { TagWire, WebsiteWire, tagRecordFields, websiteWire } from './asset.wire';

/**
 * Tags and websites read as records of their own (GET /tag/{tag}, GET /tags, ...): the fields an
 * asset shows of them, with the records they are linked to (both sides of each link).
 */
export class FlattenedIdsWire {
  iterable: Identified[];
  /** Id -> position in `iterable` (the official clients read a flattened collection through it). */
  indices: Record<string, number>;
}
export class TagRecordWire extends TagWire {
  /** The live assets the tag is linked to. */
  assets: FlattenedIdsWire;
}
export class TagRecordsWire {
  iterable: TagRecordWire[];
}
export class WebsiteRecordWire extends WebsiteWire {
  /** The live assets the website is linked to. */
  assets: FlattenedIdsWire;
  /** The live conversations the website is linked to. */
  conversations?: FlattenedIdsWire;
}
export class WebsiteRecordsWire {
  iterable: WebsiteRecordWire[];
}
export class ReferencedTagWire {
  id: string;
  reference: TagRecordWire;
}
export class ReferencedWebsiteWire {
  id: string;
  reference: WebsiteRecordWire;
}
/** POST /tags/exists, /websites/exists: the record of that text or URL, or neither key. */
export class ExistingMetadataWire {
  tag?: ReferencedTagWire;
  website?: ReferencedWebsiteWire;
}
export class SearchedTagWire {
  identifier: string;
  tag: TagRecordWire;
  /** The tag's text is the query (case aside). */
  exact: boolean;
  /** Relative to the best match (1). */
  similarity: number;
}
export class SearchedTagsWire {
  iterable: SearchedTagWire[];
}
export class SearchedWebsiteWire {
  identifier: string;
  website: WebsiteRecordWire;
  exact: boolean;
  similarity: number;
}
export class SearchedWebsitesWire {
  iterable: SearchedWebsiteWire[];
}

export const flattenedIds = (ids: string[]): FlattenedIdsWire => indexed(ids.map((id) => ({ id })));

export function tagRecordWire(tag: TagEntity, assetIds: string[]): TagRecordWire {
  return { ...tagRecordFields(tag), assets: flattenedIds(assetIds) };
}

export function websiteRecordWire(
  website: WebsiteEntity,
  assetIds: string[],
  conversationIds?: string[],
): WebsiteRecordWire {
  return {
    ...websiteWire(website),
    assets: flattenedIds(assetIds),
    ...(conversationIds ? { conversations: flattenedIds(conversationIds) } : {}),
  };
}
