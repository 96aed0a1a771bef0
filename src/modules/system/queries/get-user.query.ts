import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LocalUser } from '../local-user';
import { UserWire } from '../wire/user.wire';

/** The local user: Trove runs without accounts, so there is exactly one. */
export class GetUserQuery extends Query<UserWire> {}

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery> {
  constructor(private readonly user: LocalUser) {}

  async execute(): Promise<UserWire> {
    return { user: { id: this.user.id, aesthetics: { theme: { dark: false }, font: { size: 12 } } } };
  }
}
