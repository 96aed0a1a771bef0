import { ApplicationEntity } from '../application.entity';

export class ApplicationWire {
  id: string;
  name: string;
  version: string;
  platform: string;
  onboarded: boolean;
  privacy: string;
  /** CapabilitiesEnum: what the application chose (Trove runs everything locally whatever it says). */
  capabilities: string;
}

export class ApplicationsWire {
  iterable: ApplicationWire[];
}

export function applicationWire(app: ApplicationEntity): ApplicationWire {
  return {
    id: app.id,
    name: app.name,
    version: app.version,
    platform: app.platform,
    onboarded: Boolean(app.onboarded),
    privacy: app.privacy,
    capabilities: app.capabilities ?? 'LOCAL',
  };
}
