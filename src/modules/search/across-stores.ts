import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { callerOf, mergeAcrossStores } from '../../common/http/team-caller';
import { SearchedAssetsWire } from './wire/searched-assets.wire';

/**
 * A search of the caller's store; with `X-Trove-Space: *` on a team deployment, the same search
 * run in the caller's own store and every space they belong to, one list, each result labelled
 * with its store (docs/TEAMS.md).
 */
export async function searchedAcrossStores(
  request: FastifyRequest,
  queries: QueryBus,
  search: (queries: QueryBus) => Promise<SearchedAssetsWire>,
): Promise<SearchedAssetsWire> {
  const caller = callerOf(request.raw);
  if (!caller?.everywhere) return search(queries);
  const answers = await caller.inEachStore((app) => search(app.get(QueryBus)));
  const iterable = mergeAcrossStores(
    answers.map(({ store, value }) => ({ store, value: value.iterable })),
    (hit) => hit.score,
  );
  const exact = iterable.filter((hit) => hit.exact).length;
  return { iterable, suggested: iterable.length - exact, exact };
}
