/**
 * Response objects that know a cheaper way to their own JSON text than JSON.stringify: the
 * reply serializer (configureApp) asks here first. A writer must return exactly what
 * JSON.stringify would (the asset writer's test checks it).
 */
const writers = new WeakMap<object, (value: never) => string>();

/** Registers `writer` for `value` (returned as it is). */
export function withJsonWriter<T extends object>(value: T, writer: (value: T) => string): T {
  writers.set(value, writer as (value: never) => string);
  return value;
}

/** The JSON text of a reply payload. */
export function toJson(value: unknown): string {
  const writer = typeof value === 'object' && value !== null ? writers.get(value) : undefined;
  return writer ? writer(value as never) : JSON.stringify(value);
}
