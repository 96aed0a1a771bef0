/**
 * Exit codes of the `trove` command (docs/OPERATIONS.md). 78 is what `npm start` exits with on an
 * invalid environment; the command keeps it so that scripts treat both alike.
 */
export const EXIT = {
  /** Done; for `doctor`: no finding. */
  ok: 0,
  /** The operation failed or was refused (a finding of `doctor`, a verification mismatch, a store in use, an I/O error). */
  failure: 1,
  /** The command line is wrong: unknown command or option, missing or invalid argument. Nothing was done. */
  usage: 2,
  /** The environment (TROVE_*, DATABASE_URL, ...) is invalid, as `npm start` reports it. */
  config: 78,
} as const;

/** A failure the command reports in one line (no stack trace) before exiting with `code`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A wrong command line found after parsing (a bad combination of options): exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'UsageError';
  }
}
