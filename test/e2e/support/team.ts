import { run } from '../../../src/cli/main';
import type { TestServer } from './server';

/** `trove <args>` in this process, against the server's store; resolves with its exit code and stdout. */
export async function trove(server: TestServer, args: string[]): Promise<{ code: number | 'serving'; stdout: string }> {
  const store = server.config.databaseUrl
    ? ['--database-url', server.config.databaseUrl]
    : ['--data-dir', server.config.dataDir];
  let stdout = '';
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  try {
    const code = await run(['node', 'trove', ...args, ...store]);
    return { code, stdout };
  } finally {
    write.mockRestore();
  }
}

/** Adds a user with `trove users add` and answers the token it printed on its last line. */
export async function addUser(server: TestServer, name: string, admin = false): Promise<string> {
  const result = await trove(server, ['users', 'add', name, ...(admin ? ['--admin'] : [])]);
  expect(result.code).toBe(0);
  const token = result.stdout.trim().split('\n').pop()!;
  expect(token).toMatch(/^trove_[A-Za-z0-9_-]{43}$/);
  return token;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
