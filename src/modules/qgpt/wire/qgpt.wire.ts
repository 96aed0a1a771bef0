import { StoreLabelWire } from '../../../common/wire/store-label.wire';
import { ApplicationWire } from '../../system/wire/application.wire';
import type { Snippet } from '../snippet-cache';

export class QGPTTransferableStringWire {
  raw: string;
}
export class QGPTFragmentWire {
  string: QGPTTransferableStringWire;
}
export class QGPTSeededFormatWire {
  fragment: QGPTFragmentWire;
}
export class QGPTSeededAssetWire {
  application: ApplicationWire;
  format: QGPTSeededFormatWire;
}
export class QGPTSeedWire {
  type: string;
  asset: QGPTSeededAssetWire;
}
export class QGPTReferencedAssetWire {
  id: string;
}

/** A relevant snippet; `id` is accepted by /qgpt/question for a while after. */
export class RelevantQGPTSeedWire {
  id: string;
  seed: QGPTSeedWire;
  /** The local file it was read from. */
  path?: string;
  /** The asset it was taken from. */
  asset?: QGPTReferencedAssetWire;
  /** 0..1, how well it matches the query (Trove's addition; clients ignore it). */
  score: number;
  /** Where it comes from, in a look across stores (`X-Trove-Space: *`) only. */
  space?: StoreLabelWire;
}

/** The wire form of a snippet: a seed with its text, credited to `application` (Trove's own). */
export function relevantSeedWire(snippet: Snippet, application: ApplicationWire): RelevantQGPTSeedWire {
  return {
    id: snippet.id,
    seed: { type: 'SEEDED_ASSET', asset: { application, format: { fragment: { string: { raw: snippet.text } } } } },
    ...(snippet.path ? { path: snippet.path } : {}),
    ...(snippet.assetId ? { asset: { id: snippet.assetId } } : {}),
    score: snippet.score,
  };
}

export class RelevantQGPTSeedsWire {
  iterable: RelevantQGPTSeedWire[];
}

export class QGPTQuestionAnswerWire {
  score: number;
  text: string;
}
export class QGPTQuestionAnswersWire {
  iterable: QGPTQuestionAnswerWire[];
}
export class QGPTQuestionOutputWire {
  answers: QGPTQuestionAnswersWire;
}

export class QGPTRelevanceOutputWire {
  relevant: RelevantQGPTSeedsWire;
  answer?: QGPTQuestionOutputWire;
}

export class QGPTRepromptOutputWire {
  query: string;
}

export class PersonsWire {
  iterable: object[];
}
export class QGPTPersonsRelatedOutputWire {
  persons: PersonsWire;
}
