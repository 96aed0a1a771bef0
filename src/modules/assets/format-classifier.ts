import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { Database } from '../../common/database/database.service';
import { Outbox } from '../../common/events/outbox';
import { LanguageClassification, LanguageDetector } from '../intelligence/language-detector.service';
import { SearchIndex } from '../search/search-index.service';
import { AssetChangedEvent } from './events/asset-changed.event';
import { FormatEntity } from './format.entity';

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
    private readonly search: SearchIndex,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
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
    const pending = await this.db.read((em) =>
      em.find(FormatEntity, { select: { id: true }, where: { classificationPending: true }, order: { createdAt: 'ASC' } }),
    );
    if (pending.length) this.refineLater(pending.map((f) => f.id));
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
    const format = await this.db.read((em) => em.findOne(FormatEntity, { where: { id, classificationPending: true } }));
    if (!format) return; // deleted, edited or already refined meanwhile
    const label = await this.detect(format.raw);
    // Only if nothing changed the text or the label since: an explicit edit wins.
    const changed = await this.db.transaction(async (em) => {
      const result = await em.update(
        FormatEntity,
        { id, classificationPending: true, updatedAt: format.updatedAt },
        { generic: label.generic, specific: label.specific, classificationPending: false },
      );
      if (result.affected === 0) return false;
      await this.search.reindex(em, format.assetId); // the index keeps each asset's languages for filters
      await this.outbox.append(em, 'assets', format.assetId);
      return true;
    });
    if (changed) this.events.publish(new AssetChangedEvent(format.assetId, 'updated'));
  }
}
