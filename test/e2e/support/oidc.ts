import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** A real OpenID provider (test/support/oidc-provider.mjs, oidc-provider) in a child process. */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the one client with this redirect URI (Trove's /auth/callback); resolves once it is served. */
  register(redirectUri: string): Promise<void>;
  close(): Promise<void>;
}

export async function startProvider(): Promise<TestProvider> {
  const clientId = 'trove-web';
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}-0123456789`;
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, '..', '..', 'support', 'oidc-provider.mjs'), clientId, clientSecret],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const onLine = (line: string) => {
        if (!line.startsWith(prefix)) return;
        lines.off('line', onLine);
        resolve(line.slice(prefix.length).trim());
      };
      lines.on('line', onLine);
      child.once('exit', (code) => reject(new Error(`the OpenID provider exited (${code})`)));
    });
  const issuer = await next('ISSUER');
  return {
    issuer,
    clientId,
    clientSecret,
    register: async (redirectUri) => {
      const ready = next('READY');
      child.stdin!.write(`${redirectUri}\n`);
      await ready;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/** The OIDC settings of a Trove that signs people in at this provider. */
export function oidcEnv(provider: TestProvider, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TROVE_OIDC_ISSUER: provider.issuer,
    TROVE_OIDC_CLIENT_ID: provider.clientId,
    TROVE_OIDC_CLIENT_SECRET: provider.clientSecret,
    ...extra,
  };
}

/** A cookie jar by name only (the provider and Trove both live on 127.0.0.1; names differ). */
export class Jar {
  readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair.trim().split('=');
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value.join('=') === '') this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
  }
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header() },
    });
    this.take(response.headers);
    return response;
  }
}

/**
 * Signs in as `login` without a browser: GET /auth/login, then the provider's devInteractions
 * login and consent forms, following redirects by hand, up to Trove's callback, whose response
 * (not followed) it answers.
 */
export async function signInByHttp(baseUrl: string, jar: Jar, login: string): Promise<Response> {
  let response = await jar.fetch(`${baseUrl}/auth/login`);
  let url = `${baseUrl}/auth/login`;
  for (let step = 0; step < 20; step++) {
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url).href;
      response = await jar.fetch(url);
      if (url.startsWith(`${baseUrl}/auth/callback`)) return response;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url} (${response.status}): ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const input of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
      fields.set(input[1], input[2]);
    if (/name="login"/.test(html)) {
      fields.set('login', login);
      fields.set('password', 'any');
    }
    url = new URL(action, url).href;
    response = await jar.fetch(url, {
      method: 'POST',
      body: fields,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  throw new Error('the sign-in did not reach the callback');
}
