// A real OpenID Connect provider for the sign-in tests (oidc-provider, a certified library), run
// with `node` as a child process (it is ESM-only). It listens on 127.0.0.1 and a free port and
// prints `ISSUER <url>`; then it waits for one line on standard input, the client's redirect URI
// (Trove's /auth/callback, known only once Trove listens), registers the one client (code flow,
// PKCE, client_secret_basic) and prints `READY`. Its devInteractions login page takes any login
// name; the account's claims are made from it (preferred_username, email).
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import Provider from 'oidc-provider';

const [clientId, clientSecret] = process.argv.slice(2);
let handler = (request, response) => {
  response.writeHead(503);
  response.end();
};
const server = createServer((request, response) => handler(request, response));
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`ISSUER ${issuer}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.once('line', (redirectUri) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUri.trim().split(/\s+/),
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'] },
      conformIdTokenClaims: false,
      findAccount: (ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, preferred_username: id, name: id, email: `${id}@example.test` }),
      }),
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
    });
    handler = provider.callback();
    process.stdout.write('READY\n');
  });
  lines.on('close', () => server.close(() => process.exit(0)));
});
