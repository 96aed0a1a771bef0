import { Injectable } from '@nestjs/common';
import { collect } from '../intelligence/providers/model-provider';
import { ExtractiveTextEngine } from '../intelligence/text/extractive-text-engine';
import { AssetDescriptionInput, TextGenerator } from '../intelligence/text/text-generator';
import { ModelRegistry, ResolvedModel } from './model-registry';

const MAX_INPUT = 24_000;

/**
 * TEXT_GENERATOR: the extractive engine while the selected model (TROVE_DEFAULT_MODEL) is
 * the offline one; the selected language model otherwise. Conversation rename, summarize
 * and from-asset call this without knowing which.
 */
@Injectable()
export class RoutedTextGenerator implements TextGenerator {
  constructor(
    private readonly extractive: ExtractiveTextEngine,
    private readonly registry: ModelRegistry,
  ) {}

  get engine(): string {
    return 'routed';
  }

  private async model(): Promise<ResolvedModel | null> {
    const model = await this.registry.resolve();
    return model.offline ? null : model;
  }

  private async ask(model: ResolvedModel, instruction: string, text: string, maxTokens: number): Promise<string> {
    const messages = [
      ...(model.systemPrompt ? [{ role: 'system' as const, content: model.systemPrompt }] : []),
      { role: 'user' as const, content: `${instruction}\n\n---\n${text.slice(0, MAX_INPUT)}` },
    ];
    const out = await collect(
      model.provider.chat(model.unique, messages, { maxTokens, temperature: model.generation.temperature ?? 0.2 }),
    );
    return out.trim();
  }

  async summarize(texts: string[], maxSentences: number): Promise<string> {
    const model = await this.model();
    if (!model) return this.extractive.summarize(texts, maxSentences);
    return this.ask(
      model,
      `Summarize the following in at most ${maxSentences} sentences. Answer with the summary only.`,
      texts.join('\n\n'),
      400,
    );
  }

  async keyPhrases(text: string, n: number): Promise<string[]> {
    const model = await this.model();
    if (!model) return this.extractive.keyPhrases(text, n);
    const out = await this.ask(
      model,
      `List the ${n} most important key phrases of the following, one per line, nothing else.`,
      text,
      200,
    );
    return out
      .split('\n')
      .map((l) => l.replace(/^[\s\-*\d.)]+/, '').trim())
      .filter(Boolean)
      .slice(0, n);
  }

  async title(texts: string[]): Promise<string> {
    const model = await this.model();
    if (!model) return this.extractive.title(texts);
    const out = await this.ask(
      model,
      'Give a short title (at most 8 words) for the following conversation. Answer with the title only, no quotes.',
      texts.join('\n\n'),
      40,
    );
    return out
      .split('\n')[0]
      .replace(/^["'#\s]+|["'\s]+$/g, '')
      .slice(0, 80);
  }

  async describeAsset(input: AssetDescriptionInput): Promise<string> {
    const model = await this.model();
    if (!model) return this.extractive.describeAsset(input);
    return this.ask(
      model,
      `Describe this ${input.generic === 'CODE' ? `${input.specific} code snippet` : 'note'}${input.name ? ` named "${input.name}"` : ''}: what it is and what its key parts do, in a short paragraph.`,
      input.text,
      400,
    );
  }
}
