/** GET /.well-known/ready: this instance can serve, its database answering. */
export class ReadinessWire {
  /** Always `ready` (an instance that is not answers 503). */
  status: 'ready';
  /** `sqlite` or `postgres`. */
  storage: 'sqlite' | 'postgres';
  /** How long the database took to answer the check's trivial query, in milliseconds. */
  databaseMs: number;
}
