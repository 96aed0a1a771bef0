import { CommandHandler, EventBus, ICommandHandler, Command } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { SearchIndex } from '../../search/search-index.service';
import { ApplicationRegistry } from '../../system/application.registry';
import { IdempotencyKeys, IdempotentRequest } from '../../system/idempotency-keys';
import { LocalUser } from '../../system/local-user';
import { AssetReader } from '../asset.reader';
import { seedText } from '../asset-text';
import { AssetWriter } from '../asset.writer';
import { AssetEntity } from '../asset.entity';
import { SeedDto } from '../dto/seed.dto';
import { AssetActivityEvent } from '../events/asset-activity.event';
import { AssetChangedEvent } from '../events/asset-changed.event';
import { FormatClassifier } from '../format-classifier';
import { FormatEntity } from '../format.entity';
import { AssetWire, assetWire } from '../wire/asset.wire';

export class CreateAssetCommand extends Command<AssetWire> {
  constructor(
    readonly seed: SeedDto | undefined,
    readonly transferables: boolean,
    /** The client's Idempotency-Key header, if it sent one. */
    readonly idempotencyKey?: string,
  ) {
    super();
  }
}

@CommandHandler(CreateAssetCommand)
export class CreateAssetHandler implements ICommandHandler<CreateAssetCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly applications: ApplicationRegistry,
    private readonly user: LocalUser,
    private readonly classifier: FormatClassifier,
    private readonly search: SearchIndex,
    private readonly events: EventBus,
    private readonly idempotency: IdempotencyKeys,
    private readonly outbox: Outbox,
  ) {}

  async execute({ seed, transferables, idempotencyKey }: CreateAssetCommand): Promise<AssetWire> {
    const idempotent = this.idempotency.request('assets.create', idempotencyKey, seed);
    try {
      return await this.create(seed, transferables, idempotent);
    } catch (error) {
      if (!idempotent || !this.idempotency.isRace(error)) throw error;
      // The same key raced in another transaction, which committed first: answer its asset.
      return this.db.read(async (em) => assetWire(await this.reader.one(em, (await this.idempotency.find(em, idempotent))!), transferables));
    }
  }

  private async create(seed: SeedDto | undefined, transferables: boolean, idempotent: IdempotentRequest | null): Promise<AssetWire> {
    const text = seedText(seed);
    const seeded = seed!.asset!;
    const given = seeded.format.classification;
    const detected = given?.generic && given?.specific ? null : await this.classifier.classify(text);
    const classification = {
      generic: given?.generic ?? detected!.classification.generic,
      specific: given?.specific ?? detected!.classification.specific,
    };
    const pending = detected?.pending === true;
    const formatId = randomUUID();
    const metadata = seeded.metadata;
    const id = randomUUID();
    const now = nowIso();

    let applicationId = '';
    let replayed = false;
    const created = await this.db.transaction(async (em) => {
      const earlier = idempotent && (await this.idempotency.find(em, idempotent));
      if (earlier) {
        replayed = true;
        return assetWire(await this.reader.one(em, earlier), transferables);
      }
      applicationId = await this.applications.resolveId(em, seeded.application);
      await this.db.insert(em, AssetEntity, {
        id,
        name: metadata?.name?.trim() || null,
        creator: this.user.id,
        mechanism: metadata?.mechanism ?? 'MANUAL',
        favorited: false,
        pseudo: seeded.pseudo ?? false,
        scoreManual: 0,
        scoreAutomatic: 0,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      // The asset row first (the others refer to it), then its satellites at once.
      await this.db.together(
        () => this.db.insert(em, FormatEntity, {
          id: formatId,
          assetId: id,
          position: 0,
          role: 'BOTH',
          generic: classification.generic,
          specific: classification.specific,
          classificationPending: pending,
          applicationId,
          creator: this.user.id,
          raw: text,
          bytes: Buffer.byteLength(text, 'utf8'),
          createdAt: now,
          updatedAt: now,
        }),
        metadata?.tags?.length && (() => this.writer.setTags(em, id, metadata.tags!, { created: true })),
        metadata?.websites?.length && (() => this.writer.setWebsites(em, id, metadata.websites!, { created: true })),
        metadata?.annotations?.length && (() => this.writer.addAnnotations(em, id, metadata.annotations!)),
      );
      const aggregate = await this.reader.one(em, id);
      const wire = assetWire(aggregate, transferables);
      await this.db.together(
        () => this.search.index(em, aggregate, { created: true }),
        idempotent && (() => this.idempotency.record(em, idempotent, id)),
        () => this.outbox.append(em, 'assets', id),
      );
      return wire;
    }, { independent: !idempotent });
    if (replayed) return created;
    this.applications.remember(seeded.application, applicationId);
    if (pending) this.classifier.refineLater([formatId]);
    this.events.publish(new AssetChangedEvent(id, 'created'));
    this.events.publish(new AssetActivityEvent(id, 'created', null, applicationId));
    return created;
  }
}
