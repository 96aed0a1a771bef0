// Five tiers, one jest project each (the npm scripts pick them with --selectProjects; jest has no
// per-project worker count, so each tier is its own run):
// - unit: pure logic, no app boot (test/unit, test/contract): `npm run test:unit`, first and fast.
// - integration: the use cases (command and query handlers, repositories, the unit of work) in a
//   Nest application context without HTTP (test/integration/support/store.ts), each spec file on a
//   temporary SQLite directory of its own (or a new PostgreSQL database): `npm run test:integration`.
// - e2e: specs that boot the real app in-process on a real port (test/e2e/support/server.ts). Each
//   server has its own temporary SQLite directory (or PostgreSQL database) and port 0, so spec
//   files are independent and run in parallel workers (`npm run test:e2e`).
// - browser: the web app in Chromium (test/browser), one browser per file (`npm run test:browser`).
// - serial: the spec files listed in SERIAL, each with why it must run alone (`npm run test:serial`).
// `npm test` runs the five in turn. Without --selectProjects this config runs everything in one
// worker, as before: `npx jest --config test/jest.config.js test/e2e/cli.spec.ts` runs one file.
// The Swagger CLI plugin runs as a ts-jest AST transformer so DTO schemas exist in tests too.

/** Spec files (or folders) that must not share the machine with other spec files, and why. */
const SERIAL = [
  // Builds dist/ and runs it as `npm start` does, SIGKILLing it at random moments under load;
  // the WAL checkpoint test measures that a background timer runs within a second.
  'test/durability/',
  // Measures the resident memory of a server process of its own while it streams a 60 MB listing.
  'test/scale/',
];

/** Dependencies published as ES modules only (secretlint; openid-client and what it imports). */
const ESM_ONLY = ['@secretlint', 'openid-client', 'oauth4webapi', 'jose'];

const root = require('node:path').join(__dirname, '..');

const base = {
  rootDir: root,
  testEnvironment: 'node',
  // Tests build dist/ (the crash test runs it as `npm start` does); its package.json copy is not a module.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: '<rootDir>/tsconfig.json',
        astTransformers: { before: ['<rootDir>/test/support/swagger-plugin.js'] },
      },
    ],
    // ESM-only packages the app requires (Node >= 20.19 loads them with require() itself; jest's
    // own module loader cannot): compiled to CommonJS as they are loaded.
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
      'ts-jest',
      {
        tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', esModuleInterop: true },
        isolatedModules: true,
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
};

/**
 * The web app in real Chromium (playwright-core, /usr/bin/chromium or CHROMIUM_PATH): one
 * browser per file, run in band after the e2e tier (`npm run test:browser`).
 */
const BROWSER = ['test/browser/'];

/** Pure logic, no app boot (text.spec.ts: the extractive text engine, in memory). */
const UNIT = ['test/unit/', 'test/contract/', 'test/intelligence/text.spec.ts'];
/** Use cases and repositories on a real store, without HTTP. */
const INTEGRATION = ['test/integration/'];
const glob = (path) => (path.endsWith('/') ? `<rootDir>/${path}**/*.spec.ts` : `<rootDir>/${path}`);
const pattern = (path) => `<rootDir>/${path.replace(/[.]/g, '\\.')}`;

module.exports = {
  rootDir: root,
  maxWorkers: 1,
  // A global option: jest ignores testTimeout in a project's config.
  testTimeout: 30000,
  projects: [
    { ...base, displayName: 'unit', testMatch: UNIT.map(glob) },
    { ...base, displayName: 'integration', testMatch: INTEGRATION.map(glob) },
    {
      ...base,
      displayName: 'e2e',
      // `/` serves the web app (the SDK walker, the applets): built once, before the workers start.
      globalSetup: '<rootDir>/test/support/web-build.setup.js',
      testMatch: ['<rootDir>/test/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...[...UNIT, ...INTEGRATION, ...SERIAL, ...BROWSER].map(pattern)],
    },
    {
      ...base,
      displayName: 'browser',
      globalSetup: '<rootDir>/test/support/web-build.setup.js',
      testMatch: BROWSER.map(glob),
    },
    { ...base, displayName: 'serial', testMatch: SERIAL.map(glob) },
  ],
};
