/**
 * What the rest of Trove asks of a text model: summaries, key phrases, titles and asset
 * descriptions. The offline default is ExtractiveTextEngine (it only selects and arranges
 * what the input already says); the QGPT issue can bind TEXT_GENERATOR to an LLM-backed
 * implementation when a model is selected, without touching the callers.
 */
export interface AssetDescriptionInput {
  /** The asset's name, when it has one. */
  name: string | null;
  /** The text of its original format. */
  text: string;
  /** classification.generic (CODE, TEXT, ...). */
  generic: string;
  /** classification.specific (py, ts, md, txt, ...). */
  specific: string;
}

export interface TextGenerator {
  /** Short name of the engine, for logs and annotations ("extractive", "ollama:llama3", ...). */
  readonly engine: string;
  /** A summary of `texts` in at most `maxSentences` sentences (empty when there is no prose). */
  summarize(texts: string[], maxSentences: number): Promise<string>;
  /** Up to `n` key phrases of `text`, most important first. */
  keyPhrases(text: string, n: number): Promise<string[]>;
  /** A short title naming the topic of `texts` (empty when there is nothing to name). */
  title(texts: string[]): Promise<string>;
  /** A description of an asset: what it is, its language and its key parts. */
  describeAsset(input: AssetDescriptionInput): Promise<string>;
}

/** Injection token: `@Inject(TEXT_GENERATOR) text: TextGenerator`. */
export const TEXT_GENERATOR = Symbol('TEXT_GENERATOR');
