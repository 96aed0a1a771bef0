import { EntityManager } from 'typeorm';

type Row = Record<string, unknown>;
type Entity<T> = new () => T;

/** Each entity's columns as hydrate needs them, read once from TypeORM's metadata. */
const columnsOf = new Map<Entity<object>, { property: string; name: string; boolean: boolean }[]>();

/**
 * Builds an entity from a raw row (or a JSON object of a statement) using TypeORM's own column
 * metadata, so a column added by a migration needs no change here; `prefix` selects aliased
 * columns. Booleans come back as 0/1 from SQLite and are normalised.
 */
export function hydrate<T extends object>(em: EntityManager, type: Entity<T>, row: Row, prefix = ''): T {
  let columns = columnsOf.get(type);
  if (!columns) {
    columns = em.connection
      .getMetadata(type)
      .columns.map((c) => ({ property: c.propertyName, name: c.databaseName, boolean: c.type === 'boolean' }));
    columnsOf.set(type, columns);
  }
  const entity = new type() as Record<string, unknown>;
  for (const column of columns) {
    const value = row[prefix + column.name];
    entity[column.property] = column.boolean && value !== null && value !== undefined ? Boolean(value) : value;
  }
  return entity as T;
}

/** The key/value pairs of a JSON object of the entity's columns read from `alias` (for json_object / json_build_object). */
export function jsonColumns(em: EntityManager, type: Entity<object>, alias: string): string {
  return em.connection
    .getMetadata(type)
    .columns.map((c) => `'${c.databaseName}', ${alias}.${c.databaseName}`)
    .join(', ');
}

/**
 * Adds to the named counters of one record in one relative UPDATE (`score_manual =
 * score_manual + 1`), so that concurrent increments add up instead of overwriting each other.
 */
export async function incrementColumns(
  em: EntityManager,
  type: Entity<object>,
  id: string,
  counters: Record<string, number>,
): Promise<void> {
  const metadata = em.connection.getMetadata(type);
  const set = Object.fromEntries(
    Object.entries(counters).map(([property, by]) => [
      property,
      () => `"${metadata.findColumnWithPropertyName(property)!.databaseName}" + ${by}`,
    ]),
  );
  await em.createQueryBuilder().update(type).set(set).where('id = :id', { id }).execute();
}
