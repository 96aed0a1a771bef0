// Writes the served OpenAPI document to openapi.json (committed, so API changes show in diffs).
// Run: npm run openapi:export   (builds first: the Swagger plugin runs at compile time)
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
require('reflect-metadata');
const { createApp } = require('../dist/src/bootstrap');
const { loadConfig } = require('../dist/src/common/config/app-config');
const { openApiDocument } = require('../dist/src/common/http/configure-app');

(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-openapi-'));
  const app = await createApp(loadConfig({ TROVE_DATA_DIR: dataDir, TROVE_LOG_LEVEL: 'error' }));
  await app.init();
  const document = openApiDocument(app);
  writeFileSync(join(__dirname, '..', 'openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`openapi.json: ${Object.keys(document.paths).length} paths`);
})();
