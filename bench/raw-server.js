// The baseline for bench/http.js: a bare Fastify server doing the same read and insert as
// Trove's GET /asset/{id} and POST /assets/create, with the same driver (sqlite3) and the same
// durability settings (WAL, synchronous=FULL), and no framework, validation or wire mapping.
const { randomUUID } = require('node:crypto');
const fastify = require('fastify')({ logger: false });
const sqlite3 = require('sqlite3');

const db = new sqlite3.Database(process.env.RAW_DB);
const run = (sql, params = []) => new Promise((ok, fail) => db.run(sql, params, (e) => (e ? fail(e) : ok())));
const get = (sql, params = []) => new Promise((ok, fail) => db.get(sql, params, (e, row) => (e ? fail(e) : ok(row))));

let queue = Promise.resolve();
const exclusive = (work) => (queue = queue.then(work, work));

fastify.get('/asset/:id', async (request, reply) => {
  const row = await get(
    'SELECT a.id, a.name, a.created_at, f.id AS format_id, f.raw FROM assets a JOIN formats f ON f.asset_id = a.id WHERE a.id = ?',
    [request.params.id],
  );
  if (!row) return reply.code(404).send({ statusCode: 404 });
  return row;
});

fastify.post('/assets/create', async (request) => {
  const raw = request.body?.asset?.format?.fragment?.string?.raw ?? '';
  const id = randomUUID();
  const now = new Date().toISOString();
  await exclusive(async () => {
    await run('BEGIN');
    await run('INSERT INTO assets (id, name, created_at) VALUES (?, ?, ?)', [id, null, now]);
    await run('INSERT INTO formats (id, asset_id, raw) VALUES (?, ?, ?)', [randomUUID(), id, raw]);
    await run('COMMIT');
  });
  return { id, created: now };
});

(async () => {
  await run('PRAGMA journal_mode = WAL');
  await run('PRAGMA synchronous = FULL');
  await run('PRAGMA foreign_keys = ON');
  await run('CREATE TABLE IF NOT EXISTS assets (id TEXT PRIMARY KEY, name TEXT, created_at TEXT NOT NULL)');
  await run(
    'CREATE TABLE IF NOT EXISTS formats (id TEXT PRIMARY KEY, asset_id TEXT NOT NULL REFERENCES assets(id), raw TEXT NOT NULL)',
  );
  await run('CREATE INDEX IF NOT EXISTS formats_asset ON formats(asset_id)');
  await fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  console.log('raw server ready');
})();
