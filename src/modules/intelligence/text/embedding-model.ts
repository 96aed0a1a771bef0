import { Injectable } from '@nestjs/common';

/** Embeds texts in the configured model: one vector per text, in order. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

/**
 * The configured embedding model (TROVE_EMBEDDING_MODEL), as the modules that are not allowed to
 * resolve models see it: the models module binds it to the provider at start
 * (EmbeddingModelBinding); search's model vector index and its passage re-ranking (Retrieval) embed through it. Unbound (no model
 * configured): `model` is null and nothing is ever embedded.
 */
@Injectable()
export class EmbeddingModel {
  private embedder: EmbedTexts | null = null;
  private name: string | null = null;

  bind(model: string, embed: EmbedTexts): void {
    this.name = model;
    this.embedder = embed;
  }

  /** The configured model (`provider:name`), or null. */
  get model(): string | null {
    return this.name;
  }

  /**
   * The texts' vectors; with `timeoutMs`, rejects after it (the request is left to end on its
   * own). Without: the provider's own time, and its error as it is (a request's status).
   */
  async embed(texts: string[], timeoutMs?: number): Promise<number[][]> {
    if (!this.embedder) throw new Error('no embedding model is configured');
    let timer: NodeJS.Timeout | undefined;
    try {
      const vectors =
        timeoutMs === undefined
          ? await this.embedder(texts)
          : await Promise.race([
              this.embedder(texts),
              new Promise<never>((_, reject) => {
                timer = setTimeout(
                  () => reject(new Error(`the embedding model did not answer within ${timeoutMs} ms`)),
                  timeoutMs,
                );
              }),
            ]);
      if (!Array.isArray(vectors) || vectors.length !== texts.length)
        throw new Error(`the embedding model answered ${vectors?.length ?? 0} vectors for ${texts.length} texts`);
      return vectors;
    } finally {
      clearTimeout(timer);
    }
  }
}
