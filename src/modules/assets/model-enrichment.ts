import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { Database } from '../../common/database/database.service';
import { EnrichmentModel } from '../intelligence/text/enrichment-model';
import { PROMPT_CHARS } from '../intelligence/text/snippet-metadata';
import { AssetEnrichment } from './asset-enrichment';
import { AssetUnitOfWork } from './asset-unit-of-work';
import { AssetReader } from './asset.reader';
import { withoutSecrets } from './sensitives/secret-detector';

/** Assets waiting for the model, at most; one more is skipped (and logged at debug). */
const QUEUE_LIMIT = 256;
/** Model requests in flight at once. */
const CONCURRENCY = 2;

/**
 * The language model's name, description and tags of a snippet (TROVE_ENRICHMENT_MODEL), after
 * the save that answered with the offline ones (AssetEnrichment): a create, or an edit of the
 * text or the language, queues its asset here once committed. Each run asks the model for the
 * parts still generated (the text with its secrets removed, cut to PROMPT_CHARS, and its
 * language), within TROVE_ENRICHMENT_TIMEOUT_MS, then applies the checked answer in a unit of
 * work to the parts that still show what Trove generated, so that an edit made meanwhile wins;
 * the unit of work reindexes and announces the asset. A failure, a timeout or an unusable answer
 * leaves the offline values. Nothing is queued while no model is configured.
 */
@Injectable()
export class ModelEnrichment implements BeforeApplicationShutdown {
  private readonly logger = new Logger('ModelEnrichment');
  private readonly queue = new Set<string>();
  private readonly running = new Map<string, AbortController>();
  private readonly runs = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly model: EnrichmentModel,
    private readonly config: AppConfig,
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly enrichment: AssetEnrichment,
    private readonly uow: AssetUnitOfWork,
  ) {}

  /** A model is configured: saves queue their assets here. */
  get enabled(): boolean {
    return this.model.bound;
  }

  /** Assets waiting for the model or with it (the metrics' queue depth). */
  get queued(): number {
    return this.queue.size + this.running.size;
  }

  /** Queues an asset whose save has committed; nothing without a model. */
  later(assetId: string): void {
    if (!this.model.bound || this.stopping || this.queue.has(assetId)) return;
    if (this.queue.size >= QUEUE_LIMIT) {
      this.logger.debug(`queue full (${QUEUE_LIMIT}): asset ${assetId} keeps its offline name, description and tags`);
      return;
    }
    this.queue.add(assetId);
    this.pump();
  }

  /** Aborts the model requests in flight and drops the queue: what they were to change keeps its offline values. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.queue.clear();
    for (const controller of this.running.values()) controller.abort(new Error('shutting down'));
    await Promise.allSettled([...this.runs]);
  }

  private pump(): void {
    while (!this.stopping && this.running.size < CONCURRENCY) {
      // The oldest asset not already with the model (an asset edited while its run is in flight waits for it).
      const id = [...this.queue].find((q) => !this.running.has(q));
      if (!id) return;
      this.queue.delete(id);
      const controller = new AbortController();
      this.running.set(id, controller);
      const run: Promise<void> = this.run(id, controller)
        .catch((error: Error) => {
          const message = `asset ${id} keeps its offline name, description and tags: ${error.message}`;
          if (this.stopping) this.logger.debug(message);
          else this.logger.warn(message);
        })
        .finally(() => {
          this.running.delete(id);
          this.runs.delete(run);
          this.pump();
        });
      this.runs.add(run);
    }
  }

  private async run(assetId: string, controller: AbortController): Promise<void> {
    const job = await this.db.read((em) => this.enrichment.modelJob(em, assetId));
    if (!job) return;
    // Cut after the secrets are removed (a cut secret would no longer be found); the prompt marks the cut.
    const text = (await withoutSecrets(job.raw)).slice(0, PROMPT_CHARS + 1);
    const timeout = AbortSignal.timeout(this.config.enrichmentTimeoutMs);
    const signal = AbortSignal.any([controller.signal, timeout]);
    const proposed = await this.model.suggest(text, job.language, job.parts, signal).catch((error: Error) => {
      throw timeout.aborted
        ? new Error(`no answer within ${this.config.enrichmentTimeoutMs} ms (TROVE_ENRICHMENT_TIMEOUT_MS)`)
        : error;
    });
    if (!proposed) {
      this.logger.debug(`asset ${assetId}: the model's answer held no usable name, description or tags`);
      return;
    }
    if (this.stopping) return;
    await this.uow.run(async ({ em, changed }) => {
      // PostgreSQL: an edit committing meanwhile (another instance, another connection) is waited
      // for and then read, so that it wins; SQLite's one writer runs units one at a time.
      await this.reader.lock(em, [assetId]);
      if (!(await this.enrichment.adopt(em, assetId, job.raw, proposed))) return;
      changed({ id: assetId, change: 'updated', aggregate: await this.reader.one(em, assetId) });
    });
  }
}
