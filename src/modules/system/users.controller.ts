import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotFound } from '../../common/errors/domain-errors';
import { LocalUser } from './local-user';
import { SubscriptionsWire, UserProfileWire, UsersWire, userProfileWire } from './wire/user.wire';

/**
 * The users and their plans as the SDK's UsersApi and SubscriptionsApi ask for them: Trove has
 * one local user, without an account, so no cloud plan (beyond the core interface; docs/CLIENTS.md).
 */
@ApiTags('System')
@Controller()
export class UsersController {
  constructor(private readonly user: LocalUser) {}

  @Get('users')
  @ApiOperation({ operationId: 'usersSnapshot', summary: 'The users of this instance: the one local user' })
  @ApiOkResponse({ type: UsersWire })
  users(): UsersWire {
    return { iterable: [userProfileWire(this.user.id)] };
  }

  @Get('users/:user')
  @ApiOperation({
    operationId: 'usersSpecificUserSnapshot',
    summary: 'One user: the local user by its id (404 for any other)',
  })
  @ApiOkResponse({ type: UserProfileWire })
  one(@Param('user') user: string): UserProfileWire {
    if (user !== this.user.id) throw new NotFound(`no user ${user}: this instance has one local user (GET /user)`);
    return userProfileWire(this.user.id);
  }

  @Get('subscriptions')
  @ApiOperation({
    operationId: 'subscriptionsSnapshot',
    summary: 'What the local user has: no cloud plan, so no subscription',
  })
  @ApiOkResponse({ type: SubscriptionsWire })
  subscriptions(): SubscriptionsWire {
    return { iterable: [], indices: {} };
  }
}
