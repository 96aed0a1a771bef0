import { Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { MetadataStorage, getMetadataStorage } from 'class-validator';
import { InvalidInput } from '../errors/domain-errors';

/** "asset.format.fragment.string.raw must be a string" for every failed constraint, nested included. */
function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : `${path}: ${message}`,
    );
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/**
 * The input rules of every DTO, applied to HTTP bodies and queries by Nest (configureApp) and to
 * WebSocket, MCP and command-line input by validateInput: unknown fields, wrong types and
 * missing required fields are all an InvalidInput (400) that names the field.
 */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => new InvalidInput(flatten(errors)),
});

/** `value` checked against the DTO class and turned into it, as an HTTP body would be; InvalidInput otherwise. */
export async function validateInput<T extends object>(type: Type<T>, value: unknown): Promise<T> {
  return (await validationPipe.transform(value, { type: 'body', metatype: type })) as T;
}

let memoised = false;

type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type GroupedRules = ReturnType<MetadataStorage['groupByPropertyName']>;

/**
 * class-validator finds a class's rules (its own and inherited ones) by scanning every class that
 * has rules, on each validation of each nested object (typestack/class-validator#2686, open).
 * With this project's DTOs that scan was a fifth of the main thread under a create load. A
 * class's rules are all registered when it is loaded, before anything can be validated against
 * it, so the lookup is memoised per class and options (what twentyhq/twenty#24085 does too).
 * The grouping of those rules by property, which it also redoes per object, is memoised per
 * rule list: the memoised lookup hands out the same list each time, and class-validator only
 * reads the grouping. Call once the DTO classes are loaded; later calls do nothing.
 */
export function memoiseValidationMetadata(): void {
  if (memoised) return;
  memoised = true;
  const storage = getMetadataStorage();
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const byTarget = new WeakMap<object, Map<string, Rules>>();
  const grouped = new WeakMap<Rules, GroupedRules>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    let cache = byTarget.get(target);
    if (!cache) byTarget.set(target, (cache = new Map()));
    const key = `${schema}\0${always}\0${strictGroups}\0${groups?.join('\0') ?? ''}`;
    let rules = cache.get(key);
    if (!rules) cache.set(key, (rules = lookup(target, schema, always, strictGroups, groups)));
    return rules;
  };
  storage.groupByPropertyName = (rules) => {
    let byProperty = grouped.get(rules);
    if (!byProperty) grouped.set(rules, (byProperty = group(rules)));
    return byProperty;
  };
}
