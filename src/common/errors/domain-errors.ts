/**
 * What a use case says went wrong, whatever the transport: the HTTP filter, the WebSocket
 * sessions, MCP and the command line turn a kind into their own status (STATUS_OF for HTTP).
 * Use cases throw these, never HTTP exceptions.
 */
const STATUS_OF = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  unprocessable: 422,
  'rate-limited': 429,
  'upstream-failed': 502,
  unavailable: 503,
} as const;

export type DomainErrorKind = keyof typeof STATUS_OF;

export class DomainError extends Error {
  /** The message as a list (a validation failure names each field). */
  readonly messages: string | string[];

  constructor(
    readonly kind: DomainErrorKind,
    message: string | string[],
    /** Seconds (or an HTTP date) after which a retry may succeed: rate limits, unavailability. */
    readonly retryAfter?: string,
  ) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = new.target.name;
    this.messages = message;
  }

  get status(): number {
    return STATUS_OF[this.kind];
  }
}

/** The input breaks a rule: a missing or malformed field, an id of the wrong shape, ... */
export class InvalidInput extends DomainError {
  constructor(message: string | string[]) {
    super('invalid', message);
  }
}

/** No such record. */
export class NotFound extends DomainError {
  constructor(message: string) {
    super('not-found', message);
  }
}

/** The record existed and was deleted. */
export class Gone extends DomainError {
  constructor(message: string) {
    super('gone', message);
  }
}

/** Not allowed here, whoever asks (a path outside the allowed roots, a page of another site). */
export class Forbidden extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

/** The caller is not who it must be (an application that never connected, a refused key). */
export class Unauthorized extends DomainError {
  constructor(message: string) {
    super('unauthorized', message);
  }
}

/** The request contradicts the state (a key already used for another request). */
export class Unprocessable extends DomainError {
  constructor(message: string) {
    super('unprocessable', message);
  }
}

/** The request is valid but what it needs is not there now (storage, a provider, a restart). */
export class Unavailable extends DomainError {
  constructor(message: string, retryAfter?: string) {
    super('unavailable', message, retryAfter);
  }
}

/** The client has used up what it may hold or send for now (Retry-After says when to try again). */
export class RateLimited extends DomainError {
  constructor(message: string, retryAfter?: string) {
    super('rate-limited', message, retryAfter);
  }
}

/** The request would make two records of what must be one (a tag renamed to the text of another). */
export class Conflict extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}
