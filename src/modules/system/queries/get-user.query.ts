import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { LocalUser } from '../local-user';
import { UserWire, userProfileWire } from '../wire/user.wire';

/** The local user: Trove runs without accounts, so there is exactly one, always signed in. */
export class GetUserQuery extends Query<UserWire> {}

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery> {
  constructor(private readonly user: LocalUser) {}

  async execute(): Promise<UserWire> {
    return { user: userProfileWire(this.user.id) };
  }
}
