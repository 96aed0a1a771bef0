import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * The search index over assets. Owned by the search module; the assets module calls it INSIDE
 * the transaction that changes an asset, so search never sees a half-written asset.
 */
@Injectable()
export class SearchIndex {
  /** (Re)indexes one asset from its current rows, within `em`'s transaction. */
  async index(em: EntityManager, assetId: string): Promise<void> {
    void em;
    void assetId;
  }

  /** Drops one asset from the index, within `em`'s transaction. */
  async remove(em: EntityManager, assetId: string): Promise<void> {
    void em;
    void assetId;
  }
}
