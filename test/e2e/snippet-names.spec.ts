import { Asset, AssetApi, AssetsApi, ClassificationSpecificEnum } from '@pieces.app/pieces-os-client';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';

/**
 * Issue 45 item 1: everyday snippets that define nothing (a query, a command, a manifest, a rule,
 * a page) saved without a name through the official SDK are named after what they are about,
 * described in one sentence that says more than their length and language, and tagged from the
 * same understanding; a name the user gives is kept. Item 2: configuration formats are detected as
 * themselves, with a language the SDK accepts.
 */

/** The language may be refined after the create answered (the models run after commit): read until settled. */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const EXAMPLES: Array<{
  what: string;
  raw: string;
  language: string;
  name: RegExp;
  description: RegExp;
  tags: string[];
}> = [
  {
    what: 'an SQL report',
    raw: "SELECT c.name, SUM(o.total) AS revenue\nFROM customers c\nJOIN orders o ON o.customer_id = c.id\nWHERE o.created_at >= DATE '2026-01-01'\nGROUP BY c.name\nORDER BY revenue DESC\nLIMIT 10;\n",
    language: 'sql',
    name: /^select name, revenue from customers, orders$/,
    description:
      /^SQL query selecting name and revenue from customers and orders, grouped by name, ordered by revenue\.$/,
    tags: ['sql', 'customers', 'orders'],
  },
  {
    what: 'a docker run command',
    raw: 'docker run -d --name cache -p 6379:6379 redis:7-alpine\n',
    language: 'sh',
    name: /^docker run redis:7-alpine as "cache"$/,
    description: /runs the redis:7-alpine container "cache" publishing 6379:6379\.$/,
    tags: ['docker', 'redis'],
  },
  {
    what: 'a Kubernetes Deployment',
    raw: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n          ports:\n            - containerPort: 80\n',
    language: 'yaml',
    name: /^Deployment web \(apps\/v1\)$/,
    description: /^Kubernetes Deployment "web" with 3 replicas, running nginx:1\.27\.$/,
    tags: ['kubernetes', 'deployment', 'web'],
  },
  {
    what: 'a Dockerfile',
    raw: 'FROM python:3.12-slim\nWORKDIR /app\nCOPY requirements.txt .\nRUN pip install --no-cache-dir -r requirements.txt\nCOPY . .\nEXPOSE 8000\nCMD ["gunicorn", "app:app", "--bind", "0.0.0.0:8000"]\n',
    language: 'dockerfile',
    name: /^Dockerfile: python:3\.12-slim running gunicorn app:app$/,
    description:
      /^Dockerfile building on python:3\.12-slim, exposing 8000, running "gunicorn app:app --bind 0\.0\.0\.0:8000"\.$/,
    tags: ['dockerfile', 'python'],
  },
  {
    what: 'a CSS rule',
    raw: '.btn-primary {\n  background-color: #0d6efd;\n  color: #fff;\n  border-radius: 0.375rem;\n}\n\n.btn-primary:hover {\n  background-color: #0b5ed7;\n}\n',
    language: 'css',
    name: /^CSS \.btn-primary, \.btn-primary:hover$/,
    description:
      /^CSS rules for \.btn-primary and \.btn-primary:hover setting background-color, color and border-radius\.$/,
    tags: ['css', 'btn-primary'],
  },
  {
    what: 'a GitHub Actions workflow',
    raw: 'name: CI\non:\n  push:\n    branches: [main]\n  pull_request:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run lint\n',
    language: 'yaml',
    name: /^CI: GitHub Actions jobs test, lint$/,
    description: /^GitHub Actions workflow "CI" run on push and pull_request with jobs test and lint\.$/,
    tags: ['github-actions', 'test', 'lint'],
  },
  {
    what: 'an nginx server block',
    raw: 'server {\n    listen 80;\n    server_name example.com www.example.com;\n\n    location / {\n        proxy_pass http://127.0.0.1:3000;\n        proxy_set_header Host $host;\n    }\n\n    location /static/ {\n        root /var/www/example;\n    }\n}\n',
    language: 'hljs-nginx',
    name: /^nginx example\.com: \/, \/static\/$/,
    description:
      /^An nginx server block for example\.com and www\.example\.com listening on 80 with locations \/ and \/static\/, proxying to http:\/\/127\.0\.0\.1:3000\.$/,
    tags: ['nginx', 'example.com'],
  },
  {
    what: 'a curl call',
    raw: 'curl -X POST https://api.example.com/v1/users \\\n  -H \'Content-Type: application/json\' \\\n  -d \'{"name": "Ada"}\'\n',
    language: 'sh',
    name: /^curl POST https:\/\/api\.example\.com\/v1\/users$/,
    description: /^HTTP POST request to https:\/\/api\.example\.com\/v1\/users with curl, sending JSON\.$/,
    tags: ['curl', 'post'],
  },
  {
    what: 'a Markdown document',
    raw: '# Deploying the billing service\n\nThe service runs on two nodes behind a load balancer.\n\n## Requirements\n\n- Node 20\n- PostgreSQL 16\n\n## Rolling back\n\nRedeploy the previous tag.\n',
    language: 'md',
    name: /^Deploying the billing service$/,
    description: /^Markdown document "Deploying the billing service" with sections Requirements and Rolling back\.$/,
    tags: ['markdown'],
  },
  {
    what: 'a .env file',
    raw: 'DATABASE_URL=postgres://app@db:5432/app\nREDIS_URL=redis://cache:6379\nPORT=8080\n',
    language: 'sh',
    name: /^\.env: DATABASE_URL, REDIS_URL, PORT$/,
    description: /^Environment file setting DATABASE_URL, REDIS_URL and PORT\.$/,
    tags: ['env', 'database', 'redis'],
  },
  {
    what: 'a Compose file',
    raw: 'services:\n  web:\n    build: .\n    ports:\n      - "8000:8000"\n    depends_on:\n      - db\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_DB: app\n',
    language: 'yaml',
    name: /^Compose: web, db$/,
    description: /^Docker Compose file with services web and db \(images postgres:16\)\.$/,
    tags: ['docker-compose', 'web', 'db'],
  },
  {
    what: 'a package.json',
    raw: JSON.stringify(
      {
        name: 'billing-api',
        version: '2.1.0',
        scripts: { build: 'tsc', test: 'jest' },
        dependencies: { express: '5.1.0', zod: '4.1.0' },
      },
      null,
      2,
    ),
    language: 'json',
    name: /^billing-api 2\.1\.0 \(package\.json\)$/,
    description:
      /^An npm package manifest of billing-api 2\.1\.0: scripts build and test, 2 dependencies \(express, zod\)\.$/,
    tags: ['npm', 'billing-api'],
  },
];

describe('snippet names: what a snippet that defines nothing is about', () => {
  let server: TestServer;
  let assets: AssetsApi;
  let asset: AssetApi;
  beforeAll(async () => {
    server = await startTestServer();
    assets = new AssetsApi(server.sdk);
    asset = new AssetApi(server.sdk);
  });
  afterAll(() => server.close());

  const settled = (id: string, language: string) =>
    until(
      () => asset.assetSnapshot({ asset: id, transferables: false }),
      (a: Asset) =>
        a.original.reference?.classification.specific === language &&
        !!a.name &&
        (a.annotations?.iterable?.length ?? 0) > 0,
    );

  it.each(EXAMPLES)(
    '$what saved without a name is named, described and tagged after what it is',
    async ({ raw, language, name, description, tags }) => {
      const created = await assets.assetsCreateNewAsset({ seed: textSeed(raw) });
      // (when the models refine the language after the answer, the generated parts follow it)
      const saved = await until(
        () => asset.assetSnapshot({ asset: created.id, transferables: false }),
        (a: Asset) => a.original.reference?.classification.specific === language && name.test(a.name ?? ''),
      );
      expect(saved.original.reference?.classification.specific).toBe(language);
      expect(Object.values(ClassificationSpecificEnum)).toContain(saved.original.reference?.classification.specific);
      expect(saved.name).toMatch(name);
      const descriptions = (saved.annotations?.iterable ?? []).filter((a) => a.type === 'DESCRIPTION');
      expect(descriptions).toHaveLength(1);
      expect(descriptions[0].text).toMatch(description);
      expect(descriptions[0].mechanism).toBe('AUTOMATIC');
      const shown = (saved.tags?.iterable ?? []).map((t) => t.text);
      for (const tag of tags) expect(shown).toContain(tag);
    },
  );

  it('a name and a description the user gives are kept', async () => {
    const created = await assets.assetsCreateNewAsset({
      seed: textSeed(EXAMPLES[0].raw, {
        name: 'Top customers this year',
        annotations: [{ type: 'DESCRIPTION', text: 'For the board deck.' }],
      }),
    });
    const saved = await until(
      () => asset.assetSnapshot({ asset: created.id, transferables: false }),
      (a: Asset) => a.original.reference?.classification.specific === 'sql',
    );
    expect(saved.name).toBe('Top customers this year');
    expect((saved.annotations?.iterable ?? []).filter((a) => a.type === 'DESCRIPTION').map((a) => a.text)).toEqual([
      'For the board deck.',
    ]);
  });

  it('a snippet that defines a function is still named after it', async () => {
    const created = await assets.assetsCreateNewAsset({
      seed: textSeed('#!/bin/bash\n# Print a greeting.\ngreet() {\n  echo "hello $1"\n}\ngreet world\n'),
    });
    const saved = await settled(created.id, 'sh');
    expect(saved.name).toMatch(/^greet/);
  });
});
