import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { nowIso } from '../../../common/wire/common.wire';
import { ApplicationRegistry } from '../../system/application.registry';
import { IdempotencyKeys, IdempotentRequest } from '../../system/idempotency-keys';
import { LocalUser } from '../../system/local-user';
import { AssetEnrichment } from '../asset-enrichment';
import { AssetReader } from '../asset.reader';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { seedText } from '../asset-text';
import { AssetWriter } from '../asset.writer';
import { SeedDto } from '../dto/seed.dto';
import { FormatClassifier } from '../format-classifier';
import { ModelEnrichment } from '../model-enrichment';
import { prepareSecrets } from '../sensitives/secret-detector';
import { AssetAggregate, AssetWire, assetWire } from '../wire/asset.wire';

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
    private readonly idempotency: IdempotencyKeys,
    private readonly uow: AssetUnitOfWork,
    private readonly enrichment: AssetEnrichment,
    private readonly modelEnrichment: ModelEnrichment,
  ) {}

  async execute({ seed, transferables, idempotencyKey }: CreateAssetCommand): Promise<AssetWire> {
    const idempotent = this.idempotency.request('assets.create', idempotencyKey, seed);
    try {
      return await this.create(seed, transferables, idempotent);
    } catch (error) {
      if (!idempotent || !this.idempotency.isRace(error)) throw error;
      // The same key raced in another transaction, which committed first: answer its asset.
      return this.db.read(async (em) =>
        assetWire(await this.reader.one(em, (await this.idempotency.find(em, idempotent))!), transferables),
      );
    }
  }

  private async create(
    seed: SeedDto | undefined,
    transferables: boolean,
    idempotent: IdempotentRequest | null,
  ): Promise<AssetWire> {
    const text = seedText(seed);
    const seeded = seed!.asset!;
    const given = seeded.format.classification;
    const detected = given?.generic && given?.specific ? null : this.classifier.classify(text);
    const classification = {
      generic: given?.generic ?? detected!.generic,
      specific: given?.specific ?? detected!.specific,
    };
    const formatId = randomUUID();
    const metadata = seeded.metadata;
    // What the client did not give, made offline now.
    const generated = await this.enrichment.suggest(text, classification, AssetEnrichment.lacking(metadata));
    const automatic = AssetEnrichment.asInputs(generated);
    const tags = metadata?.tags?.length ? metadata.tags : automatic.tags;
    const annotations = [...(metadata?.annotations ?? []), ...automatic.annotations];
    // The secrets scan of the text, before the unit of work (suggest made it already for code and
    // text): its projection finds it made, and no save queued behind this one waits on it.
    await prepareSecrets([text]);
    const id = randomUUID();
    const now = nowIso();

    let applicationId = '';
    let replayed = false;
    const created = await this.uow.run<{ wire?: AssetWire; aggregate?: AssetAggregate }>(
      async ({ em, changed }) => {
        const earlier = idempotent && (await this.idempotency.find(em, idempotent));
        if (earlier) {
          replayed = true;
          return { wire: assetWire(await this.reader.one(em, earlier), transferables) };
        }
        applicationId = await this.applications.resolveId(em, seeded.application);
        await this.writer.insertAsset(em, {
          id,
          name: metadata?.name?.trim() || generated.name || null,
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
          () =>
            this.writer.insertFormat(em, {
              id: formatId,
              assetId: id,
              position: 0,
              role: 'BOTH',
              generic: classification.generic,
              specific: classification.specific,
              classificationPending: false,
              applicationId,
              creator: this.user.id,
              raw: text,
              bytes: Buffer.byteLength(text, 'utf8'),
              createdAt: now,
              updatedAt: now,
            }),
          tags.length > 0 && (() => this.writer.setTags(em, id, tags, { created: true })),
          metadata?.websites?.length && (() => this.writer.setWebsites(em, id, metadata.websites!, { created: true })),
          annotations.length > 0 && (() => this.writer.addAnnotations(em, id, annotations)),
          () => this.enrichment.recordNew(em, id, generated),
        );
        const aggregate = await this.reader.one(em, id);
        if (idempotent) await this.idempotency.record(em, idempotent, id);
        changed({ id, change: 'created', aggregate, activity: { kind: 'created', applicationId } });
        // Made after the unit of work's projections ran: they add the sensitives found in the text.
        return { aggregate };
      },
      { independent: !idempotent },
    );
    if (replayed || created.wire) return created.wire!;
    this.applications.remember(seeded.application, applicationId);
    // The model's name, description and tags, after this answer (the offline ones stand until then).
    if (generated.name || generated.description || generated.tags.length) this.modelEnrichment.later(id);
    return assetWire(created.aggregate!, transferables);
  }
}
