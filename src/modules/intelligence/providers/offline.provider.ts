import { bestPassages, hashedVector, passagesOf, rankPassages } from '../text/extractive-answerer';
import { ChatMessage, ChatOptions, DiscoveredModel, ModelProvider } from './model-provider';

export const OFFLINE_UNIQUE = 'trove-extractive';
export const OFFLINE_NAME = 'Trove Extractive (offline)';
const OFFLINE_DESCRIPTION =
  'Built-in offline engine, not a language model: it answers with the best-matching passages of the relevant ' +
  'snippets (BM25 + query coverage, each with a score), summarizes and titles extractively (TextRank, key ' +
  'phrases), suggests follow-up questions from key phrases and retrieves with the search index. It never writes new text.';

/**
 * The offline engine as a provider, so it is listed and chosen like any model. Its "chat"
 * is extractive: the passages of the conversation's context (system and earlier messages)
 * that best match the last user message, quoted as written.
 */
export class OfflineProvider implements ModelProvider {
  readonly kind = 'offline' as const;
  readonly label = OFFLINE_NAME;

  async list(): Promise<DiscoveredModel[]> {
    return [
      {
        unique: OFFLINE_UNIQUE,
        name: OFFLINE_NAME,
        loaded: true,
        downloaded: true,
        cloud: false,
        embedding: false,
        maxTokens: null,
        description: OFFLINE_DESCRIPTION,
      },
    ];
  }

  async *chat(_model: string, messages: ChatMessage[], options: ChatOptions = {}): AsyncIterable<string> {
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const question = lastUser?.content ?? '';
    const context = messages.filter((m) => m !== lastUser).map((m) => m.content);
    const passages = context.flatMap((text, doc) => passagesOf(text, doc));
    const best = bestPassages(rankPassages(question, passages), 2);
    const answer = best.length
      ? best.map((p) => p.text).join('\n\n')
      : 'The offline engine found no passage in the given context that matches this question.';
    // Streamed by line, like a model would, so callers treat every provider alike.
    for (const piece of answer.split(/(?<=\n)/)) {
      if (options.signal?.aborted) return;
      yield piece;
    }
  }

  async embed(_model: string, texts: string[]): Promise<number[][]> {
    return texts.map((t) => hashedVector(t));
  }

  async load(): Promise<void> {}

  async unload(): Promise<void> {}

  async deleteCache(): Promise<boolean> {
    return false;
  }
}
