import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { nowIso } from '../../../common/wire/common.wire';
import { AssetChange, AssetProjection, AssetProjections } from '../asset-unit-of-work';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import { SensitiveEntity } from '../sensitive.entity';
import { AssetAggregate } from '../wire/asset.wire';
import { DetectedSecret, detectSecrets } from './secret-detector';

/** What detection spent, per asset scanned (ms): the last few thousand, for GET /metrics-like reads and the bench. */
const TIMINGS_KEPT = 4096;

/**
 * Keeps each asset's sensitives (SensitiveEntity) in step with its text, inside the transaction
 * that changes it: a projection of assets (AssetProjections), so every change of content is
 * covered the same way (create, update, format value update, import). The first format's text
 * is scanned (detectSecrets); a secret found before keeps its record (position updated), a new
 * one is added, one no longer in the text goes, and one the user dismissed stays dismissed
 * while the same value is at the same place in the sequence of that value's occurrences.
 * Nothing here logs: neither the text nor what was found.
 */
@Injectable()
export class AssetSecrets implements AssetProjection {
  /** Milliseconds detection took, the latest TIMINGS_KEPT scans (bench/eval read them). */
  readonly timings: number[] = [];

  constructor(
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    projections: AssetProjections,
  ) {
    projections.register(this);
  }

  async apply(em: EntityManager, changes: AssetChange[]): Promise<void> {
    for (const change of changes) {
      if (change.change !== 'created' && change.change !== 'updated') continue;
      // Read once here when the use case did not: the later projections (search) use it too.
      change.aggregate ??= (await this.reader.live(em, change.id)) ?? undefined;
      if (change.aggregate) await this.follow(em, change.aggregate, change.change === 'created');
    }
  }

  /** Makes the asset's sensitives those of its text now; `aggregate.sensitives` is set to them. */
  private async follow(em: EntityManager, aggregate: AssetAggregate, created: boolean): Promise<void> {
    const text = aggregate.formats[0]?.raw ?? '';
    const started = performance.now();
    const found = await detectSecrets(text);
    this.timings.push(performance.now() - started);
    if (this.timings.length > TIMINGS_KEPT) this.timings.splice(0, this.timings.length - TIMINGS_KEPT);
    // Nothing found and nothing shown: nothing to change (dismissals stay as they are).
    if (found.length === 0 && aggregate.sensitives.length === 0) return;
    // The asset's rows, dismissed ones too (a new asset has none).
    const rows = created ? [] : await this.reader.sensitivesOf(em, aggregate.asset.id);
    const byFingerprint = new Map(rows.map((r) => [r.fingerprint, r]));
    const now = nowIso();
    const kept = new Set<string>();
    const live: SensitiveEntity[] = [];
    const inserts: SensitiveEntity[] = [];
    for (const [secret, fingerprint] of fingerprints(aggregate.asset.id, found)) {
      const row = byFingerprint.get(fingerprint);
      if (row) {
        kept.add(row.id);
        if (row.dismissedAt) continue;
        if (row.matchStart !== secret.start || row.matchEnd !== secret.end) {
          Object.assign(row, { matchStart: secret.start, matchEnd: secret.end, updatedAt: now });
          await this.writer.moveSensitive(em, row.id, secret.start, secret.end, now);
        }
        live.push(row);
        continue;
      }
      const inserted: SensitiveEntity = Object.assign(new SensitiveEntity(), {
        id: randomUUID(),
        assetId: aggregate.asset.id,
        rule: secret.rule,
        fingerprint,
        text: secret.masked.slice(0, 128),
        category: secret.category,
        severity: secret.severity,
        name: secret.name,
        description: secret.description,
        mechanism: 'AUTOMATIC',
        matchStart: secret.start,
        matchEnd: secret.end,
        entropy: secret.entropy ?? null,
        createdAt: now,
        updatedAt: now,
        dismissedAt: null,
      });
      inserts.push(inserted);
      live.push(inserted);
    }
    // Gone from the text: the record goes (a dismissal stays, for the value coming back).
    const gone = rows.filter((r) => !kept.has(r.id) && !r.dismissedAt).map((r) => r.id);
    if (gone.length) await this.writer.deleteSensitives(em, gone);
    for (const row of inserts) {
      const { asset: _asset, ...columns } = row;
      await this.writer.insertSensitive(em, columns);
    }
    aggregate.sensitives = live.sort((a, b) => a.matchStart - b.matchStart);
  }
}

/** Each secret with its fingerprint: the asset, the value, and which occurrence of that value it is. */
function fingerprints(assetId: string, found: DetectedSecret[]): Array<[DetectedSecret, string]> {
  const seen = new Map<string, number>();
  return found.map((secret) => {
    const n = (seen.get(secret.value) ?? 0) + 1;
    seen.set(secret.value, n);
    return [secret, createHash('sha256').update(`${assetId}\0${secret.value}\0${n}`).digest('hex')];
  });
}
