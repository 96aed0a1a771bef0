/** The parts of Trove's wire models (the Pieces OS client models) the app reads. */
export interface GroupedTimestamp {
  value: string;
  readable?: string;
}

export interface Application {
  id: string;
  name: string;
  version?: string;
  platform?: string;
}

export interface Format {
  id: string;
  classification?: { generic?: string; specific?: string };
  application?: Application;
  fragment?: { string?: { raw?: string } };
  file?: { string?: { raw?: string } };
  bytes?: { value: number };
}

export interface Tag {
  id: string;
  text: string;
}

export interface Website {
  id: string;
  url: string;
  name?: string;
}

export interface Annotation {
  id: string;
  type: string;
  text: string;
}

export interface Asset {
  id: string;
  name?: string | null;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  original?: { id: string; reference?: Format };
  preview?: { base?: { id: string; reference?: Format } };
  formats?: { iterable: Format[] };
  tags?: { iterable: Tag[] };
  websites?: { iterable: Website[] };
  annotations?: { iterable: Annotation[] };
  /** Secrets Trove found in the text (never the secret: `text` is its mask). */
  sensitives?: { iterable: Sensitive[] };
}

export interface Sensitive {
  id: string;
  category: string;
  severity: string;
  name: string;
  text: string;
}

/** Where a result of a search across a team's stores comes from (GET /trove/spaces lists them). */
export interface StoreLabel {
  /** The space's id; null for the user's own store. */
  space: string | null;
  name: string;
  role: 'owner' | 'reader' | 'editor';
}

export interface SearchHit {
  asset?: Asset;
  identifier: string;
  score?: number;
  exact?: boolean;
  /** In a search across stores only. */
  space?: StoreLabel;
}

export interface RelevantSeed {
  id: string;
  asset?: { id: string };
  score?: number;
  seed?: { asset?: { format?: { fragment?: { string?: { raw?: string } } } } };
}

export interface Conversation {
  id: string;
  name?: string | null;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  type?: string;
  messages?: { iterable: Array<{ id: string }> };
  assets?: { iterable: Array<{ id: string }> };
}

export interface ConversationMessage {
  id: string;
  role: 'USER' | 'ASSISTANT' | 'SYSTEM' | string;
  created: GroupedTimestamp;
  fragment?: { string?: { raw?: string } };
  model?: { id: string; name?: string };
}

export interface Model {
  id: string;
  name: string;
  provider?: string;
  unique?: string;
  description?: string;
  cloud?: boolean;
  downloaded?: boolean;
  usage?: string;
  foundation?: string;
}
