import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash, randomUUID } from 'node:crypto';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { SeededModelDto } from '../dto/seeded-model.dto';
import { ModelRegistry } from '../model-registry';
import { ModelStore } from '../model.store';
import { ModelWire, modelWire } from '../wire/model.wire';

/** Canonical JSON (sorted keys) for the duplicate check. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * POST /models/create: registers a custom model (custom: true) on a provider model
 * (`unique`) or on a base model with a system prompt and parameters (`configuration`).
 * The same seed again (its `created` aside) returns the model already registered.
 */
export class CreateModelCommand extends Command<ModelWire> {
  constructor(readonly seed: SeededModelDto | undefined) {
    super();
  }
}

@CommandHandler(CreateModelCommand)
export class CreateModelHandler implements ICommandHandler<CreateModelCommand> {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly store: ModelStore,
  ) {}

  async execute({ seed }: CreateModelCommand): Promise<ModelWire> {
    if (!seed) throw new InvalidInput('a SeededModel body is required');
    const ref = seed.configuration?.base ?? seed.unique;
    if (!ref)
      throw new InvalidInput(
        'name the model to build on: `unique` (a provider model such as ollama:llama3.2, or a name GET /models lists) or `configuration.base` (a model id)',
      );
    if (!seed.name.trim()) throw new InvalidInput('name must not be empty');
    const base = await this.registry.resolve(ref).catch((error: Error) => {
      throw new InvalidInput(`cannot build on "${ref}": ${error.message}`);
    });
    const baseIsCustom = base.id !== (await this.registry.resolve(`${base.provider.kind}:${base.unique}`)).id;
    const { created, configuration, ...described } = seed;
    void created;
    const parameters = {
      ...(configuration?.temperature !== undefined ? { temperature: configuration.temperature } : {}),
      ...(configuration?.max_output_tokens !== undefined ? { maxTokens: configuration.max_output_tokens } : {}),
    };
    const fingerprint = `custom:${createHash('sha256')
      .update(canonical({ ...described, configuration }))
      .digest('hex')}`;
    const { entity } = await this.store.createCustom({
      id: randomUUID(),
      provider: base.provider.kind,
      unique: base.unique,
      name: seed.name.trim(),
      custom: true,
      baseModelId: configuration?.base || baseIsCustom ? base.id : null,
      systemPrompt: configuration?.system ?? null,
      parameters: Object.keys(parameters).length ? JSON.stringify(parameters) : null,
      seed: JSON.stringify(described),
      fingerprint,
    });
    const view = (await this.registry.list()).find((v) => v.id === entity.id);
    return modelWire(view!);
  }
}
