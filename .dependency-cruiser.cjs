/**
 * Module boundaries, checked in CI (npm run lint). Each feature module depends only on the
 * modules below it (no module cycles); common/ depends on no module; a module's writers and
 * stores (its SQL that changes data) are its own; another module's entities are referenced only
 * by entity files (foreign keys), never queried through.
 */
const DEPENDS_ON = {
  system: [],
  intelligence: [],
  models: ['intelligence'],
  assets: ['system', 'intelligence'],
  search: ['assets', 'intelligence'],
  conversations: ['assets', 'intelligence', 'models'],
  qgpt: ['assets', 'conversations', 'search', 'models', 'intelligence', 'system'],
  mcp: ['assets', 'conversations', 'search', 'models', 'intelligence', 'system', 'qgpt'],
  connector: ['assets', 'search', 'system'],
  streams: ['assets', 'conversations', 'models', 'system'],
  transfer: ['assets', 'search', 'intelligence', 'system'],
  applets: [],
  operations: ['assets', 'search', 'streams', 'mcp'],
};

const moduleRules = Object.entries(DEPENDS_ON).map(([name, allowed]) => ({
  name: `module-${name}`,
  comment: `${name} may depend on ${allowed.length ? allowed.join(', ') : 'no other module'} (docs/ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: `^src/modules/${name}/` },
  to: { path: '^src/modules/', pathNot: `^src/modules/(${[name, ...allowed].join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...moduleRules,
    {
      name: 'search-public-api',
      comment:
        "qgpt and mcp use search through its public API (Retrieval, SearchEngine's search, its module and wire), never its inner stages (the rankings, the indexes, the stores)",
      severity: 'error',
      from: { path: '^src/modules/(qgpt|mcp)/' },
      to: {
        path: '^src/modules/search/',
        pathNot: [
          '^src/modules/search/(search\\.module|retrieval\\.service|search-engine\\.service)\\.ts$',
          '^src/modules/search/wire/',
        ],
      },
    },
    {
      name: 'module-unknown',
      comment: 'every module is listed in .dependency-cruiser.cjs with what it may depend on',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: `^src/modules/(${Object.keys(DEPENDS_ON).join('|')})/` },
      to: {},
    },
    {
      name: 'common-no-modules',
      comment: 'common/ is what the modules share: it depends on none of them',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'own-writers',
      comment: "a module's writers and stores are its own: other modules change its records through its commands",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: ['\\.writer\\.ts$', '\\.store\\.ts$', '/store/'], pathNot: '^src/modules/$1/' },
    },
    {
      name: 'own-entities',
      comment:
        "another module's entity classes are referenced by entity files only (foreign keys); its data is read through its readers (whose results may be typed with its entities: type-only imports)",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.entity\\.ts$' },
      to: { path: '\\.entity\\.ts$', pathNot: '^src/modules/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/migrations/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
