import { Injectable } from '@nestjs/common';
import { ChatMessage } from '../providers/model-provider';
import { AskedParts, SnippetMetadata, parseSnippetMetadata, snippetMetadataPrompt } from './snippet-metadata';

/** Asks the enrichment model; null when it resolves to the offline engine (nothing to ask). */
export type EnrichmentAsk = (
  messages: ChatMessage[],
  options: { signal: AbortSignal; maxTokens: number },
) => Promise<string | null>;

/**
 * The language model that names, describes and tags snippets (TROVE_ENRICHMENT_MODEL), for the
 * assets module, which may not depend on the models module: the models module binds it at start
 * when one is configured (as the search index registers itself with the assets' projections).
 * Unbound: the offline enrichment alone.
 */
@Injectable()
export class EnrichmentModel {
  private ask: EnrichmentAsk | null = null;

  bind(ask: EnrichmentAsk): void {
    this.ask = ask;
  }

  get bound(): boolean {
    return this.ask !== null;
  }

  /**
   * The model's name, description and tags of a snippet (`text` free of secrets), checked
   * (parseSnippetMetadata); null when unbound, when the model is the offline engine, or when its
   * answer holds nothing usable. Provider errors and `signal`'s abort are thrown; an answer still
   * streaming when `signal` aborts is given up even if the provider does not stop.
   */
  async suggest(
    text: string,
    language: string | undefined,
    parts: AskedParts,
    signal: AbortSignal,
  ): Promise<SnippetMetadata | null> {
    if (!this.ask) return null;
    signal.throwIfAborted();
    let stop = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal.addEventListener('abort', stop, { once: true });
    });
    let answer: string | null;
    try {
      answer = await Promise.race([
        this.ask(snippetMetadataPrompt(text, language, parts), { signal, maxTokens: 300 }),
        aborted,
      ]);
    } finally {
      signal.removeEventListener('abort', stop);
    }
    return answer === null ? null : parseSnippetMetadata(answer);
  }
}
