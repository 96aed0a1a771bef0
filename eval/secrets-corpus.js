// The labelled sets of the secret detection evaluation (eval/secrets.js): synthetic but realistic
// secrets, one per sample, each in the format its provider issues, embedded in code a developer
// would save as a snippet. Written apart from the rules (src/modules/assets/sensitives): it knows
// the providers' formats, not Trove's patterns.
//
// Two splits that share no surrounding context and no seed:
// - dev (seed 1, contexts DEV): what Trove's own rules were written and tuned on;
// - heldout (seed 2, contexts HELDOUT): what docs/MODELS.md reports, never used for tuning.
'use strict';

/** mulberry32: a small seeded generator (the same set on every run). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';

function make(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const chars = (alphabet, n) =>
    Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const b64url = (s) => Buffer.from(s).toString('base64url');
  const words = ['orders', 'billing', 'inventory', 'auth', 'reports', 'search', 'payments', 'users', 'ledger', 'media'];
  const users = ['app', 'admin', 'deploy', 'svc_billing', 'postgres', 'reporter', 'etl', 'web'];
  const hosts = [
    'db.internal.acme.io',
    '10.0.3.17',
    'prod-db-1.c9akciq32.us-east-1.rds.amazonaws.com',
    'mongo0.example.net',
    'cache.corp.local',
  ];
  const password = () =>
    pick([
      () => chars(ALNUM, int(10, 20)),
      () => `${pick(['Summer', 'Winter', 'Blue', 'Tiger', 'Rocket'])}${int(1990, 2025)}${pick(['!', '#', '$', '@'])}`,
      () => `${chars(LOWER, int(5, 8))}${chars(DIGITS, int(2, 4))}${pick(['!', '%', '&', '*'])}${chars(UPPER, 2)}`,
      () => chars(ALNUM + '!#%^&*-_=+', int(12, 24)),
    ])();
  // Keys are DER (an ASN.1 SEQUENCE: base64 "MI...", "MH..." for a short EC key) or OpenSSH's own format.
  const KEY_START = {
    'RSA PRIVATE KEY': 'MIIEpAIBAAKCAQEA',
    'PRIVATE KEY': 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
    'EC PRIVATE KEY': 'MHcCAQEEI',
    'OPENSSH PRIVATE KEY': 'b3BlbnNzaC1rZXktdjEAAAAA',
  };
  const pem = (label, lines) => {
    const body = KEY_START[label] + chars(B64, 64 * lines + int(20, 60));
    return `-----BEGIN ${label}-----\n${body.match(/.{1,64}/g).join('\n')}=\n-----END ${label}-----`;
  };

  /** Each provider: a secret in its format, and how to write it into code (`name` is the variable a context uses). */
  const providers = {
    aws_access_key_id: () => ({
      secret: pick(['AKIA', 'ASIA']) + chars(UPPER + '234567', 16),
      name: 'AWS_ACCESS_KEY_ID',
    }),
    aws_secret_access_key: () => ({ secret: chars(B64, 40), name: 'aws_secret_access_key' }),
    github_classic: () => ({ secret: pick(['ghp_', 'gho_', 'ghs_', 'ghu_']) + chars(ALNUM, 36), name: 'GITHUB_TOKEN' }),
    github_fine_grained: () => ({ secret: `github_pat_${chars(ALNUM, 22)}_${chars(ALNUM, 59)}`, name: 'GH_TOKEN' }),
    gitlab: () => ({ secret: `glpat-${chars(ALNUM + '-_', 20)}`, name: 'GITLAB_TOKEN' }),
    slack_token: () => ({
      secret: `${pick(['xoxb', 'xoxp'])}-${chars(DIGITS, 12)}-${chars(DIGITS, 13)}-${chars(ALNUM, 24)}`,
      name: 'SLACK_BOT_TOKEN',
    }),
    slack_webhook: () => ({
      secret: `https://hooks.slack.com/services/T${chars(UPPER + DIGITS, 8)}/B${chars(UPPER + DIGITS, 10)}/${chars(ALNUM, 24)}`,
      name: 'SLACK_WEBHOOK_URL',
    }),
    stripe: () => ({
      secret: `${pick(['sk_live_', 'rk_live_'])}${chars(ALNUM, pick([24, 99]))}`,
      name: 'STRIPE_SECRET_KEY',
    }),
    openai: () => ({
      secret: `sk-proj-${chars(ALNUM + '-_', 58)}T3BlbkFJ${chars(ALNUM + '-_', 58)}`,
      name: 'OPENAI_API_KEY',
    }),
    anthropic: () => ({ secret: `sk-ant-api03-${chars(ALNUM + '-_', 93)}AA`, name: 'ANTHROPIC_API_KEY' }),
    sendgrid: () => ({ secret: `SG.${chars(ALNUM + '-_', 22)}.${chars(ALNUM + '-_', 43)}`, name: 'SENDGRID_API_KEY' }),
    npm: () => ({ secret: `npm_${chars(ALNUM, 36)}`, name: 'NPM_TOKEN' }),
    huggingface: () => ({ secret: `hf_${chars(UPPER + LOWER, 34)}`, name: 'HF_TOKEN' }),
    shopify: () => ({ secret: `shpat_${chars(HEX, 32)}`, name: 'SHOPIFY_ACCESS_TOKEN' }),
    google_api_key: () => ({ secret: `AIza${chars(ALNUM + '-_', 35)}`, name: 'GOOGLE_MAPS_KEY' }),
    twilio: () => ({ secret: `SK${chars(HEX, 32)}`, name: 'TWILIO_API_KEY' }),
    mailgun: () => ({ secret: `key-${chars(HEX, 32)}`, name: 'MAILGUN_API_KEY' }),
    jwt: () => {
      const header = b64url(JSON.stringify({ alg: pick(['HS256', 'RS256']), typ: 'JWT' }));
      const payload = b64url(
        JSON.stringify({ sub: String(int(1000, 99999)), name: pick(users), iat: int(1600000000, 1760000000) }),
      );
      return { secret: `${header}.${payload}.${chars(B64URL, 43)}`, name: 'AUTH_TOKEN' };
    },
    private_key_pem: () => ({
      secret: pem(pick(['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY']), int(4, 12)),
      name: 'PRIVATE_KEY',
      block: true,
    }),
    gcp_service_account: () => ({
      secret: pem('PRIVATE KEY', int(6, 10)).replace(/\n/g, '\\n') + '\\n',
      name: 'private_key',
      gcp: true,
    }),
    db_url: () => {
      const scheme = pick(['postgres', 'postgresql', 'mysql', 'mongodb+srv', 'mongodb']);
      const pass = chars(ALNUM, int(10, 18));
      return {
        secret: `${scheme}://${pick(users)}:${pass}@${pick(hosts)}${scheme.startsWith('mongo') ? '' : `:${pick([5432, 3306, 6543])}`}/${pick(words)}`,
        name: 'DATABASE_URL',
        pass,
      };
    },
    url_password: () => {
      const scheme = pick(['redis', 'amqp', 'https', 'ftp', 'smtp']);
      const pass = password();
      return {
        secret: `${scheme}://${pick(users)}:${encodeURIComponent(pass)}@${pick(hosts)}:${int(1000, 9999)}`,
        name: 'BROKER_URL',
        pass: encodeURIComponent(pass),
      };
    },
    password_assignment: () => ({
      secret: password(),
      name: pick([
        'password',
        'db_password',
        'DB_PASSWORD',
        'adminPassword',
        'smtp_pass',
        'PASSWD',
        'mysql_root_password',
      ]),
    }),
    generic_secret: () => ({
      secret: pick([
        () => chars(HEX, pick([32, 40, 64])),
        () => chars(B64, pick([32, 44])),
        () => chars(ALNUM, int(24, 48)),
      ])(),
      name: pick([
        'SECRET_KEY',
        'client_secret',
        'jwtSecret',
        'API_KEY',
        'apiKey',
        'signing_key',
        'WEBHOOK_SECRET',
        'session_secret',
        'encryption_key',
        'access_token',
      ]),
    }),
  };
  return { pick, chars, int, providers, words };
}

/**
 * Contexts: code around a secret, `${S}` where it goes, `${N}` its variable's name. DEV and
 * HELDOUT share no template: a rule fitted to the dev contexts' wording gains nothing on the
 * held-out ones.
 */
const DEV = {
  inline: [
    "import os\n\nclient = boto3.client('s3')\n${N} = \"${S}\"\n\ndef upload(path):\n    client.upload_file(path, 'bucket', path)\n",
    'const config = {\n  region: "us-east-1",\n  ${N}: "${S}",\n  retries: 3,\n};\nmodule.exports = config;\n',
    '# .env\nNODE_ENV=production\nPORT=8080\n${N}=${S}\nLOG_LEVEL=info\n',
    'export ${N}="${S}"\nexport PATH="$HOME/bin:$PATH"\n./deploy.sh --env prod\n',
    'package main\n\nconst ${N} = "${S}"\n\nfunc main() {\n\tfmt.Println("starting")\n}\n',
    '{\n  "service": "billing",\n  "${N}": "${S}",\n  "timeout": 30\n}\n',
  ],
  block: [
    '# deploy key for the build box\ncat > ~/.ssh/id_deploy <<EOF\n${S}\nEOF\nchmod 600 ~/.ssh/id_deploy\n',
    'const key = `${S}`;\nconst signer = crypto.createSign("RSA-SHA256");\n',
  ],
  gcp: [
    '{\n  "type": "service_account",\n  "project_id": "acme-prod-31337",\n  "private_key_id": "${K}",\n  "private_key": "${S}",\n  "client_email": "ci@acme-prod-31337.iam.gserviceaccount.com",\n  "client_id": "10987654321012345678"\n}\n',
  ],
};
const HELDOUT = {
  inline: [
    'class Settings:\n    DEBUG = False\n    ${N} = \'${S}\'\n    ALLOWED_HOSTS = ["api.acme.io"]\n',
    'services:\n  worker:\n    image: acme/worker:1.4\n    environment:\n      - ${N}=${S}\n      - QUEUE=jobs\n',
    'func newClient() *Client {\n\treturn &Client{\n\t\tBaseURL: "https://api.acme.io",\n\t\t${N}: "${S}",\n\t}\n}\n',
    'let ${N} = "${S}";\nfetch(url, { headers: { Authorization: `Bearer ${token}` } });\n',
    '[default]\nregion = eu-west-1\n${N} = ${S}\noutput = json\n',
    'spring:\n  datasource:\n    ${N}: ${S}\n    driver-class-name: org.postgresql.Driver\n',
    'curl -X POST https://api.acme.io/v1/jobs \\\n  -H "Content-Type: application/json" \\\n  -d \'{"${N}": "${S}", "job": "nightly"}\'\n',
  ],
  block: [
    'private_key: |\n  ${SI}\nhost: build.acme.io\n',
    'KEY = """${S}"""\n\ndef sign(data):\n    return rsa.sign(data, KEY)\n',
  ],
  gcp: [
    'creds = {\n    "type": "service_account",\n    "private_key_id": "${K}",\n    "private_key": "${S}",\n    "token_uri": "https://oauth2.googleapis.com/token",\n}\n',
  ],
};

/**
 * Samples of one split: `perProvider` of each provider, each `{ provider, text, start, end }`
 * where text.slice(start, end) is the secret (for a URL with a password, the password).
 */
function generate(split, perProvider = 40) {
  const random = rng(split === 'dev' ? 1 : 2);
  const { pick, chars, providers } = make(random);
  const contexts = split === 'dev' ? DEV : HELDOUT;
  const samples = [];
  for (const [provider, makeSecret] of Object.entries(providers)) {
    for (let i = 0; i < perProvider; i++) {
      const s = makeSecret();
      let template = s.block ? pick(contexts.block) : s.gcp ? pick(contexts.gcp) : pick(contexts.inline);
      let secret = s.secret;
      if (template.includes('${SI}')) {
        secret = secret.replace(/\n/g, '\n  ');
        template = template.replace('${SI}', '${S}');
      }
      template = template.replace('${K}', chars('0123456789abcdef', 40));
      const name = s.name;
      const before = template.slice(0, template.indexOf('${S}')).replace(/\$\{N\}/g, name);
      const after = template.slice(template.indexOf('${S}') + 4).replace(/\$\{N\}/g, name);
      const text = before + secret + after;
      let start = before.length;
      let end = start + secret.length;
      if (s.pass) {
        start += secret.indexOf(`:${s.pass}@`) + 1;
        end = start + s.pass.length;
      }
      samples.push({ provider, text, start, end });
    }
  }
  return samples;
}

module.exports = { generate };
