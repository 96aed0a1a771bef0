import { ApplicationWire } from '../../system/wire/application.wire';
import { UserProfileWire } from '../../system/wire/user.wire';

export class OsHealthWire {
  id: string;
  version: string;
}

export class HealthWire {
  os: OsHealthWire;
}

/** Answer of POST /connect. */
export class ContextWire {
  /** The id of this installation (stable across restarts). */
  os: string;
  application: ApplicationWire;
  health: HealthWire;
  user?: UserProfileWire;
}
