import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { SingleBar } from 'cli-progress';

/**
 * Where the command writes. Results go to stdout, progress bars and Nest's own logs to stderr, so
 * that `trove export -` can write NDJSON on stdout; `quiet` (stdout carries data) moves results to
 * stderr too.
 */
export class Output {
  constructor(private readonly quiet = false) {}

  /** A line of the command's result. */
  line(text = ''): void {
    (this.quiet ? process.stderr : process.stdout).write(`${text}\n`);
  }

  /** A warning or an error line (always stderr). */
  warn(text: string): void {
    process.stderr.write(`${text}\n`);
  }

  /**
   * A progress bar on stderr, drawn only when stderr is a terminal (nothing in pipes and logs).
   * `total` null: a count without a bar (an NDJSON stream read from a pipe).
   */
  progress(label: string): Progress {
    return new Progress(label);
  }
}

export class Progress {
  private bar: SingleBar | null = null;
  private bounded = true;

  constructor(private readonly label: string) {}

  /** The callback shape the transfer service and the commands report with. */
  readonly update = (done: number, total: number | null): void => {
    if (!process.stderr.isTTY) return;
    if (!this.bar) {
      this.bounded = total !== null;
      this.bar = new SingleBar({
        stream: process.stderr,
        format: this.bounded
          ? `${this.label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`
          : `${this.label} {value} | {duration_formatted}`,
        hideCursor: true,
        clearOnComplete: false,
        fps: 10,
      });
      this.bar.start(total ?? 0, done);
    }
    if (this.bounded && total !== null) this.bar.setTotal(total);
    this.bar.update(done);
  };

  stop(): void {
    this.bar?.stop();
    this.bar = null;
  }
}

/** Nest's console logger with every level on stderr (stdout may carry an export). */
export class StderrLogger extends ConsoleLogger {
  protected printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _stream?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

/** Nest log levels up to `level` ('warn' by default for the command: its own output is the result). */
export function logLevels(level: LogLevel): LogLevel[] {
  const all: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  return all.slice(0, all.indexOf(level) + 1);
}
