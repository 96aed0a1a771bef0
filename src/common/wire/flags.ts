import {
  BadRequestException,
  ExecutionContext,
  ParseUUIDPipe,
  PipeTransform,
  applyDecorators,
  createParamDecorator,
} from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** Boolean query flags arrive as "true"/"false"; missing is undefined; anything else is a 400. */
function parseFlag(name: string, value: unknown): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new BadRequestException(`query parameter ${name} must be true or false`);
}

/**
 * A custom parameter decorator, not @Query: the global ValidationPipe would otherwise
 * coerce any string to a boolean before we could refuse it.
 */
const FlagParam = createParamDecorator((name: string, ctx: ExecutionContext) =>
  parseFlag(name, (ctx.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query ?? {})[name]),
);

const FLAG_DOCS: Record<string, string> = {
  transferables: 'include format content (fragment); only exactly `false` omits it',
  transferable: "the SDK's name of `transferables` on the single-format and single-message routes",
  pseudo: 'also include pseudo assets',
  suggested: 'snapshot of suggested content instead of normal content',
  package_activities: 'accepted for compatibility (activities have their own endpoint)',
};

/** A documented optional boolean query flag: `@Flag('transferables') transferables?: boolean`. */
export function Flag(name: string): ParameterDecorator {
  return (target, key, index) => {
    FlagParam(name)(target, key, index);
    if (key)
      applyDecorators(ApiQuery({ name, required: false, type: Boolean, description: FLAG_DOCS[name] }))(
        target,
        key,
        Object.getOwnPropertyDescriptor(target, key)!,
      );
  };
}

/** `transferables`: content is included unless the flag is exactly false. */
export const withContent = (transferables: boolean | undefined): boolean => transferables !== false;

/** Path ids ({asset}, {conversation}, ...) are UUID strings; anything else is a 400. */
export const uuidParam = (what: string): PipeTransform =>
  new ParseUUIDPipe({
    exceptionFactory: () =>
      new BadRequestException(`${what} must be a UUID (for example 0a0b0c0d-0000-4000-8000-000000000001)`),
  });

/** A text query parameter under the first of its names that is present; repeated or too long is a 400. */
export const QueryText = createParamDecorator((names: string[], ctx: ExecutionContext): string | undefined => {
  const query = ctx.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query ?? {};
  for (const name of names) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new BadRequestException(`query parameter ${name} must be given once`);
    if (value.length > 1000) throw new BadRequestException(`query parameter ${name} must be at most 1000 characters`);
    return value;
  }
  return undefined;
});
