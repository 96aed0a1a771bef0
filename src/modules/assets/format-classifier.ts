import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { LanguageClassification, LanguageDetector } from '../intelligence/language-detector.service';
import { AssetEnrichment } from './asset-enrichment';
import { AssetUnitOfWork } from './asset-unit-of-work';
import { AssetReader } from './asset.reader';
import { AssetWriter } from './asset.writer';
import { ModelEnrichment } from './model-enrichment';

/**
 * Language detection for stored formats. Detection is synchronous and cheap (the classifier is
 * a sparse dot product, well under 5 ms), so creates and edits label their formats inline.
 *
 * Builds before the classifier ran a slower model in the background and stored some formats with a
 * provisional label and `classification_pending`; those are refined here after the start, one
 * at a time (an AssetChangedEvent announces each change), so a database they left is completed.
 */
@Injectable()
export class FormatClassifier implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('FormatClassifier');
  private readonly queue: string[] = [];
  private draining: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly detector: LanguageDetector,
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly enrichment: AssetEnrichment,
    private readonly uow: AssetUnitOfWork,
    private readonly modelEnrichment: ModelEnrichment,
  ) {}

  /** Formats waiting for their refinement (the metrics' queue depth). */
  get queued(): number {
    return this.queue.length;
  }

  classify(text: string): LanguageClassification {
    return this.detector.detectSync(text);
  }

  /** Queues formats stored with a provisional label. */
  private refineLater(formatIds: string[]): void {
    this.queue.push(...formatIds);
    this.draining ??= this.drain().finally(() => (this.draining = null));
  }

  async onApplicationBootstrap(): Promise<void> {
    const pending = await this.db.read((em) => this.reader.pendingFormatIds(em));
    if (pending.length) this.refineLater(pending);
  }

  /** Stops after the detection in flight; what is left stays pending in the database. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.queue.length && !this.stopping) {
      const id = this.queue.shift()!;
      try {
        await this.refine(id);
      } catch (error) {
        this.logger.error(`could not classify format ${id}: ${(error as Error).message}`);
      }
    }
  }

  private async refine(id: string): Promise<void> {
    const format = await this.db.read((em) => this.reader.pendingFormat(em, id));
    if (!format) return; // deleted, edited or already refined meanwhile
    const label = this.classify(format.raw);
    const labelled = await this.uow.run(async ({ em, changed }) => {
      // Only if nothing changed the text or the label since: an explicit edit wins.
      if (!(await this.writer.labelPending(em, id, format.updatedAt, label))) return false;
      // The name, description and tags its create left to this refinement (what the user set meanwhile is kept).
      if (format.position === 0) await this.enrichment.follow(em, format.assetId, format.raw, label);
      changed({ id: format.assetId, change: 'updated' }); // the index keeps each asset's languages for filters
      return true;
    });
    if (labelled && format.position === 0) this.modelEnrichment.later(format.assetId);
  }
}
