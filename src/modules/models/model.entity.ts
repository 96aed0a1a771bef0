import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A model Trove knows: discovered from a provider (custom = false, recorded the first time
 * a provider lists it, so its id and `created` stay stable) or registered through
 * POST /models/create (custom = true: a provider model under a name of its own, or a base
 * model with a system prompt and generation parameters).
 */
@Entity('models')
@Index('models_fingerprint', ['fingerprint'], { unique: true })
export class ModelEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** offline, ollama, openai or llama_cpp. */
  @Column({ type: 'varchar', length: 16 })
  provider: string;

  /** The provider's own name of the model. */
  @Column({ type: 'text' })
  unique: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', default: false })
  custom: boolean;

  /** Custom models built on another model: its id. */
  @Column({ name: 'base_model_id', type: 'varchar', length: 36, nullable: true })
  baseModelId: string | null;

  @Column({ name: 'system_prompt', type: 'text', nullable: true })
  systemPrompt: string | null;

  /** JSON: generation parameters ({temperature, maxTokens}) of a custom model. */
  @Column({ type: 'text', nullable: true })
  parameters: string | null;

  /** JSON: the descriptive fields of the SeededModel (version, type, usage, foundation, ...). */
  @Column({ type: 'text' })
  seed: string;

  /** Identity of a model: discovered `provider:unique`, or a hash of a custom model's seed (no duplicates). */
  @Column({ type: 'varchar', length: 128 })
  fingerprint: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}
