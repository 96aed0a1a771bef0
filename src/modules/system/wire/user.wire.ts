export class ThemeWire {
  dark: boolean;
}
export class FontWire {
  size: number;
}
export class AestheticsWire {
  theme: ThemeWire;
  font: FontWire;
}
export class UserProfileWire {
  id: string;
  aesthetics: AestheticsWire;
  /** Shown by clients as "Signed in as ...": it says there is no account to sign in to. */
  name: string;
  /** Empty: there is no account, hence no address (without it the Python SDK shows its default, user@pieces.app). */
  email: string;
}
export class UserWire {
  user: UserProfileWire;
}

const LOCAL_USER_NAME = 'Local user (Trove needs no sign-in)';

export function userProfileWire(id: string): UserProfileWire {
  return { id, aesthetics: { theme: { dark: false }, font: { size: 12 } }, name: LOCAL_USER_NAME, email: '' };
}

export class AllocationCloudUrlWire {
  /** AllocationStatusEnum. */
  status: string;
  url: string;
}
export class AllocationCloudUrlsWire {
  base: AllocationCloudUrlWire;
  id: AllocationCloudUrlWire;
}
export class AllocationCloudStatusWire {
  /** AllocationStatusEnum: always DISCONNECTED here. */
  cloud: string;
}
/** The user's Pieces cloud as Trove has it: none, so DISCONNECTED everywhere and no URL. */
export class AllocationCloudWire {
  id: string;
  user: string;
  project: string;
  status: AllocationCloudStatusWire;
  urls: AllocationCloudUrlsWire;
}

export function noCloudWire(userId: string): AllocationCloudWire {
  const none = { status: 'DISCONNECTED', url: '' };
  return {
    id: userId,
    user: userId,
    project: 'none',
    status: { cloud: 'DISCONNECTED' },
    urls: { base: none, id: none },
  };
}

/** Users: the one local user. */
export class UsersWire {
  iterable: UserProfileWire[];
}

/** Subscriptions: Trove has no cloud plans, so none. */
export class SubscriptionsWire {
  iterable: object[];
  indices: Record<string, number>;
}
