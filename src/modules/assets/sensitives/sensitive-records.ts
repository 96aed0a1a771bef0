import { Injectable } from '@nestjs/common';
import { Database } from '../../../common/database/database.service';
import { NotFound } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import type { EntityManager } from 'typeorm';
import { SensitiveEntity } from '../sensitive.entity';
import { SensitiveWire, SensitivesWire, flattenedAssetWire, sensitiveWire } from '../wire/asset.wire';

/** The sensitives Trove found in assets (AssetSecrets): read, and dismissed by the user. */
@Injectable()
export class SensitiveRecords {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
  ) {}

  /** Every sensitive not dismissed, oldest first, an asset's in text order (a deleted asset's went with it). */
  list(): Promise<SensitivesWire> {
    return this.db.read(async (em) => {
      return { iterable: await this.wires(em, await this.reader.liveSensitives(em)) };
    });
  }

  /** One sensitive, or 404 (never found, gone from its text, or dismissed). */
  get(id: string): Promise<SensitiveWire> {
    return this.db.read(async (em) => {
      const row = await this.reader.liveSensitive(em, id);
      if (!row) throw new NotFound(`sensitive ${id} not found`);
      return (await this.wires(em, [row]))[0];
    });
  }

  /** The rows' wire forms, each with its asset's FlattenedAsset (the assets read in one go). */
  private async wires(em: EntityManager, rows: SensitiveEntity[]): Promise<SensitiveWire[]> {
    const assets = await this.reader.liveAggregates(em, [...new Set(rows.map((r) => r.assetId))]);
    const flattened = new Map(assets.map((a) => [a.asset.id, flattenedAssetWire(a)]));
    return rows.flatMap((row) => {
      const asset = flattened.get(row.assetId);
      return asset ? [sensitiveWire(row, asset)] : [];
    });
  }

  /**
   * Dismisses a sensitive (the user says it is not a secret): it leaves the listings and its
   * asset, and stays dismissed while the same value is in the text. Its asset is changed (its
   * wire form lost the sensitive): the asset's stream announces it.
   */
  async dismiss(id: string): Promise<void> {
    await this.uow.run(async ({ em, changed }) => {
      const row = await this.reader.liveSensitive(em, id);
      if (!row) throw new NotFound(`sensitive ${id} not found`);
      await this.writer.dismissSensitive(em, id);
      await this.writer.updateAsset(em, row.assetId, { updatedAt: nowIso() });
      changed({ id: row.assetId, change: 'updated' });
    });
  }
}
