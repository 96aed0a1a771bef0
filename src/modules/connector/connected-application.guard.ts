import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { ConnectedApplications } from './connected-applications';

/**
 * Runs before the body is parsed into its DTO, so an unknown or unconnected `{application}`
 * answers 400 / 401 whatever the body is.
 */
@Injectable()
export class ConnectedApplicationGuard implements CanActivate {
  constructor(
    private readonly db: Database,
    private readonly applications: ConnectedApplications,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { params } = context.switchToHttp().getRequest<{ params: Record<string, unknown> }>();
    await this.db.read((em) => this.applications.require(em, params.application));
    return true;
  }
}
