import { BadRequestException, ExecutionContext, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { KeyedRow, Keyset, decodeKeyset, encodeKeyset, keyOf } from '../database/keyset';

/** Most records one page of a paged listing holds. */
export const MAX_PAGE = 1000;
/** Records of a page when a cursor comes without a limit. */
export const DEFAULT_PAGE = 100;

/**
 * Trove's paging extension of the collection snapshots (`GET /assets?limit=100`, then
 * `&cursor=<next_cursor>`): Pieces clients send neither parameter and get the whole collection,
 * streamed. A page answers the collection's usual body plus `next_cursor` (null on the last page).
 */
export interface PageRequest {
  limit: number;
  after: Keyset | null;
}

function one(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new BadRequestException(`query parameter ${name} must be given once`);
  return value;
}

/** The page a request asks for, or null for the whole collection; a bad limit or cursor is a 400. */
export function pageRequest(query: Record<string, unknown>): PageRequest | null {
  const limitText = one(query, 'limit');
  const cursor = one(query, 'cursor');
  if (limitText === undefined && cursor === undefined) return null;
  let limit = DEFAULT_PAGE;
  if (limitText !== undefined) {
    if (!/^\d{1,7}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_PAGE) {
      throw new BadRequestException(`query parameter limit must be an integer from 1 to ${MAX_PAGE}`);
    }
    limit = Number(limitText);
  }
  return { limit, after: cursor === undefined ? null : decodeKeyset(cursor) };
}

const PagingParam = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  pageRequest(ctx.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query ?? {}),
);

/** `@Paging() page: PageRequest | null`: the optional `limit` and `cursor` query parameters, documented. */
export function Paging(): ParameterDecorator {
  return (target, key, index) => {
    PagingParam()(target, key, index);
    if (key)
      applyDecorators(
        ApiQuery({
          name: 'limit',
          required: false,
          type: Number,
          description: `Trove extension: answer one page of at most this many records (1-${MAX_PAGE}) with \`next_cursor\`; without it (and without \`cursor\`) the whole collection is streamed`,
        }),
        ApiQuery({
          name: 'cursor',
          required: false,
          type: String,
          description: `Trove extension: the \`next_cursor\` of the previous page (${DEFAULT_PAGE} records when no limit is given)`,
        }),
      )(target, key, Object.getOwnPropertyDescriptor(target, key)!);
  };
}

/** The `next_cursor` of a page whose last row is `last` (null: it was the last page). */
export const nextCursor = (last: KeyedRow | null): string | null => (last ? encodeKeyset(keyOf(last)) : null);

/** An optional `limit` query parameter, 1 to `max`; undefined when absent, a 400 when bad. */
export function limitOf(query: Record<string, unknown>, max: number): number | undefined {
  const text = one(query, 'limit');
  if (text === undefined) return undefined;
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw new BadRequestException(`query parameter limit must be an integer from 1 to ${max}`);
  return Number(text);
}

const LimitParam = createParamDecorator((max: number, ctx: ExecutionContext) =>
  limitOf(ctx.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query ?? {}, max),
);

/** `@Limit(1000, 'hits', 100) limit?: number`: an optional `limit` of at most `max` results, documented. */
export function Limit(max: number, what: string, fallback: number): ParameterDecorator {
  return (target, key, index) => {
    LimitParam(max)(target, key, index);
    if (key)
      applyDecorators(
        ApiQuery({
          name: 'limit',
          required: false,
          type: Number,
          description: `Trove extension: at most this many ${what} (1-${max}; ${fallback} without it)`,
        }),
      )(target, key, Object.getOwnPropertyDescriptor(target, key)!);
  };
}
