import { EntityManager } from 'typeorm';
import { ApplicationReader } from '../system/application.reader';
import { ActivityEntity } from './activity.entity';
import { AssetReader } from './asset.reader';
import { ActivityWire, activityWire } from './wire/activity.wire';

/** The wire forms of activities, with their applications and (live) assets read in a statement each. */
export async function activityWires(
  em: EntityManager,
  rows: ActivityEntity[],
  applications: ApplicationReader,
  assets: AssetReader,
): Promise<ActivityWire[]> {
  const apps = new Map(
    (
      await applications.byIds(
        em,
        rows.map((r) => r.applicationId),
      )
    ).map((a) => [a.id, a]),
  );
  const assetIds = rows.map((r) => r.assetId).filter((id): id is string => id !== null);
  const aggregates = new Map((await assets.liveAggregates(em, assetIds)).map((a) => [a.asset.id, a]));
  return rows.map((row) => {
    row.application = apps.get(row.applicationId)!;
    return activityWire(row, row.assetId ? aggregates.get(row.assetId) : undefined);
  });
}
