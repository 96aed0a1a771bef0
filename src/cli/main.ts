import 'reflect-metadata';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { TROVE_VERSION } from '../version';
import { CliError, EXIT } from './exit-codes';
import { Output } from './output';

/**
 * The `trove` command (bin/trove.js): the server and the operator's tools over its store.
 * docs/OPERATIONS.md describes each command; exit codes are in exit-codes.ts. Each command's code
 * is loaded when it runs, so `trove --help` and the read-only commands start quickly.
 */

const EXIT_CODES_HELP = `
Exit codes:
  0   done (doctor: no problem found)
  1   failed or refused (doctor: a problem found; backup/restore: verification failed; store in use)
  2   usage error (unknown command or option, missing or invalid argument)
  78  invalid configuration in the environment (as npm start)

Store: TROVE_DATA_DIR (SQLite, default ~/.trove) or DATABASE_URL (PostgreSQL), as the server reads
them; --data-dir / --database-url override them. See docs/OPERATIONS.md.`;

function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535.');
  return Number(value);
}

const dataDirOption = () => new Option('--data-dir <dir>', 'SQLite store directory (instead of TROVE_DATA_DIR)');
const databaseUrlOption = () =>
  new Option('--database-url <url>', 'PostgreSQL store, postgres://... (instead of DATABASE_URL)');
const pgBinOption = () =>
  new Option(
    '--pg-bin <dir>',
    'directory of pg_dump / pg_restore (default: PATH, then /usr/lib/postgresql/<newest>/bin)',
  );

/** The result of a run: an exit code, or `serving` while the server started by `trove serve` runs. */
export type RunResult = number | 'serving';

export function buildProgram(result: { value: RunResult }): Command {
  const program = new Command('trove');
  program
    .description('Trove: run the server, and export, import, back up, restore and check its store.')
    .version(TROVE_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .showHelpAfterError('(trove --help lists the commands, trove <command> --help their options)')
    .addHelpText('after', EXIT_CODES_HELP);

  program
    .command('serve')
    .description('start the server, as npm start does (same environment; the options override it)')
    .addOption(new Option('--port <port>', 'HTTP + WebSocket port (PORT)').argParser(port))
    .addOption(new Option('--host <host>', 'interface to listen on (HOST)'))
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .addOption(
      new Option('--log-level <level>', 'TROVE_LOG_LEVEL').choices(['error', 'warn', 'log', 'debug', 'verbose']),
    )
    .action(async (options) => {
      const { serve } = await import('./commands/serve');
      await serve(options);
      result.value = 'serving';
    });

  program
    .command('export')
    .description('write every record as NDJSON to <file> (- for stdout); read-only, safe while a server runs')
    .argument('<file>', 'NDJSON file to write, or - for stdout')
    .option('--markdown <dir>', 'also write the records as Markdown files into <dir>')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (file: string, options) => {
      const { exportStore } = await import('./commands/transfer');
      await exportStore(file, options, new Output());
    });

  program
    .command('import')
    .description('add records from a file (SQLite: with no server running on the store)')
    .argument(
      '<file>',
      'file to read (- for stdin; --format vscode: a file or a directory of *.json / *.code-snippets)',
    )
    .addOption(
      new Option('--format <format>', 'what the file holds')
        .choices(['ndjson', 'vscode', 'masscode'])
        .default('ndjson'),
    )
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (file: string, options) => {
      const { importStore } = await import('./commands/transfer');
      await importStore(file, options, new Output());
    });

  program
    .command('backup')
    .description('consistent online backup to <file> plus <file>.json (counts and checksum), then verify it')
    .argument('<file>', 'backup file to write (SQLite: a database file; PostgreSQL: a pg_dump custom archive)')
    .option('--force', 'replace <file> if it exists')
    .addOption(pgBinOption())
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (file: string, options) => {
      const { backup } = await import('./commands/backup');
      await backup(file, options, new Output());
    });

  program
    .command('restore')
    .description('restore a backup into a fresh store and verify it against its manifest')
    .argument('<file>', 'backup file written by trove backup (its manifest <file>.json next to it)')
    .addOption(new Option('--data-dir <dir>', 'SQLite backup: the fresh directory to restore into'))
    .addOption(new Option('--database-url <url>', 'PostgreSQL backup: the fresh database to restore into'))
    .option('--force', 'replace the store in a non-empty directory / a database with tables')
    .option('--manifest <file>', 'the manifest, if not <file>.json')
    .addOption(pgBinOption())
    .action(async (file: string, options) => {
      const { restore } = await import('./commands/restore');
      await restore(file, options, new Output());
    });

  program
    .command('doctor')
    .description('check the store: integrity, foreign keys, search index against assets; exit 1 on any problem')
    .option('--fix', 'repair what is safe to repair (the search index, SQL indexes), then check again')
    .option('--json', 'print the report as JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options) => {
      const { doctor } = await import('./commands/doctor');
      result.value = await doctor(options, new Output());
    });

  const users = program.command('users').description("a team deployment's users and their tokens (docs/TEAMS.md)");
  users
    .command('add')
    .description(
      "add a user; prints their API token on the last line (the first user adopts the server's existing store)",
    )
    .argument('<name>', 'user name (letters, digits, . _ @ -)')
    .option('--admin', 'may read the metrics and restart or stop the server')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (name: string, options) => {
      const { addUser } = await import('./commands/team');
      result.value = await addUser(name, options, new Output());
    });
  users
    .command('list')
    .description('list the users')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options) => {
      const { listUsers } = await import('./commands/team');
      result.value = await listUsers(options, new Output());
    });
  users
    .command('remove')
    .description('remove a user (their token stops working; their store is kept)')
    .argument('<name>', 'user name')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (name: string, options) => {
      const { removeUser } = await import('./commands/team');
      result.value = await removeUser(name, options, new Output());
    });
  users
    .command('token')
    .description("replace a user's token; prints the new one on the last line")
    .argument('<name>', 'user name')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (name: string, options) => {
      const { rotateToken } = await import('./commands/team');
      result.value = await rotateToken(name, options, new Output());
    });

  const spaces = program
    .command('spaces')
    .description('shared spaces: team libraries their members read and their editors write');
  spaces
    .command('add')
    .description('add a space')
    .argument('<name>', 'space name')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (name: string, options) => {
      const { addSpace } = await import('./commands/team');
      result.value = await addSpace(name, options, new Output());
    });
  spaces
    .command('list')
    .description('list the spaces and their members')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options) => {
      const { listSpaces } = await import('./commands/team');
      result.value = await listSpaces(options, new Output());
    });
  spaces
    .command('remove')
    .description('remove a space (its store is kept)')
    .argument('<name>', 'space name')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (name: string, options) => {
      const { removeSpace } = await import('./commands/team');
      result.value = await removeSpace(name, options, new Output());
    });
  spaces
    .command('member')
    .description('add a member to a space, change their role, or remove them')
    .argument('<space>', 'space name')
    .argument('<user>', 'user name')
    .addOption(new Option('--role <role>', 'reader or editor').choices(['reader', 'editor']).default('reader'))
    .option('--remove', 'remove the member')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (space: string, user: string, options) => {
      const { setMember } = await import('./commands/team');
      result.value = await setMember(space, user, options, new Output());
    });

  program
    .command('audit')
    .description('print the audit log (oldest first): who did what, when, from where; never content or tokens')
    .option('--user <name>', 'only this user')
    .option(
      '--action <action>',
      'only this action (create, update, delete, export, import, auth.failed, sign-in, user.add, ...)',
    )
    .option('--since <time>', 'ISO 8601 time, or a duration back from now: 30m, 12h, 7d')
    .option('--limit <n>', 'the latest n entries (default 1000)')
    .option('--json', 'one JSON object a line')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options) => {
      const { showAudit } = await import('./commands/team');
      result.value = await showAudit(options, new Output());
    });

  return program;
}

/** Runs the command line `argv` (process.argv's shape); never throws. */
export async function run(argv: string[]): Promise<RunResult> {
  const result: { value: RunResult } = { value: EXIT.ok };
  const program = buildProgram(result);
  try {
    await program.parseAsync(argv);
    return result.value;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; everything else commander rejects is the command line's fault.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`trove: ${error.message}\n`);
      return error.code;
    }
    // A driver's or the system's error (SQLITE_CORRUPT, ECONNREFUSED, ENOENT, ...) says enough in
    // its message; anything else is a bug: its stack helps.
    const coded = typeof (error as { code?: unknown })?.code === 'string';
    process.stderr.write(`trove: ${coded ? (error as Error).message : ((error as Error)?.stack ?? String(error))}\n`);
    return EXIT.failure;
  }
}

/** Waits until what was written to `stream` has been handed to the system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** bin/trove.js: runs the command and exits with its code (unless it started the server). */
export async function main(argv: string[] = process.argv): Promise<void> {
  const code = await run(argv);
  if (code === 'serving') return;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
