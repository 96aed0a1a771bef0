import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { LanguageClassification, LanguageDetector } from '../intelligence/language-detector.service';
import { AssetEnrichment } from './asset-enrichment';
import { AssetUnitOfWork } from './asset-unit-of-work';
import { AssetReader } from './asset.reader';
import { AssetWriter } from './asset.writer';

/** Model detections allowed to run at once on the request path; more wait in the background. */
const MAX_INLINE = 2;
/** Provisional label while the models have not spoken yet. */
const PROVISIONAL: LanguageClassification = { generic: 'CODE', specific: 'UNKNOWN' };

export interface FormatClassification {
  classification: LanguageClassification;
  /** True when `classification` is provisional and `refineLater` must be called after commit. */
  pending: boolean;
}

/**
 * Language detection for stored formats without making creates wait on the model when it is
 * busy. Cheap answers (rules, prose) are final at once; otherwise the model runs inline while
 * fewer than MAX_INLINE detections are in flight (an interactive user gets the real label in
 * the response), and beyond that the format is stored with a provisional label and
 * `classification_pending`, then refined after commit by one background loop (an
 * AssetChangedEvent announces each change). The flag is persisted, so pending formats left by a
 * stop are refined at the next start.
 */
@Injectable()
export class FormatClassifier implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('FormatClassifier');
  private readonly queue: string[] = [];
  private inflight = 0;
  private draining: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly detector: LanguageDetector,
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly enrichment: AssetEnrichment,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async classify(text: string): Promise<FormatClassification> {
    const quick = this.detector.quick(text);
    if (quick) return { classification: quick, pending: false };
    if (this.inflight >= MAX_INLINE) return { classification: PROVISIONAL, pending: true };
    return { classification: await this.detect(text), pending: false };
  }

  /** Queues formats stored with a provisional label (call after their transaction committed). */
  refineLater(formatIds: string[]): void {
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

  private async detect(text: string): Promise<LanguageClassification> {
    this.inflight += 1;
    try {
      return await this.detector.detect(text);
    } finally {
      this.inflight -= 1;
    }
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
    const label = await this.detect(format.raw);
    await this.uow.run(async ({ em, changed }) => {
      // Only if nothing changed the text or the label since: an explicit edit wins.
      if (!(await this.writer.labelPending(em, id, format.updatedAt, label))) return;
      // The name, description and tags its create left to this refinement (what the user set meanwhile is kept).
      if (format.position === 0) await this.enrichment.follow(em, format.assetId, format.raw, label);
      changed({ id: format.assetId, change: 'updated' }); // the index keeps each asset's languages for filters
    });
  }
}
