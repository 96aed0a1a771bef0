// Regenerates src/common/wire/sdk-operations-table.json (read by sdk-operations.ts beside it), the
// table of every operation of the official TypeScript SDK (@pieces.app/pieces-os-client, MIT): its method, path template, operationId,
// the SDK API class it belongs to and whether it is a WebSocket. Trove answers an SDK operation
// it does not serve with a JSON 501 that names it (src/common/http/sdk-operations.ts).
// Run: node scripts/gen-sdk-operations.js [OUT] (after upgrading the SDK; OUT defaults to the file above).
//
// `sdkOperations()` is also what test/e2e/sdk-operations.spec.ts walks: the operations are read
// from the SDK's own API classes (each `<operationId>Raw` method), never from a hand list.
const fs = require('fs');
const path = require('path');

const APIS = path.join(path.dirname(require.resolve('@pieces.app/pieces-os-client/package.json')), 'dist', 'apis');

/**
 * Every operation of one API class file: the generated code is uniform (openapi-generator's
 * typescript-fetch), so each `async <op>Raw(` method is read for its request (path template,
 * method, query names, body) and its answer (a model, text or nothing). The path comes from the
 * code, not from the doc comment (which is wrong in places); `[WS]` comes from the doc comment.
 */
function operationsOf(file) {
  const source = fs.readFileSync(path.join(APIS, file), 'utf8');
  const api = /class (\w+) extends runtime\.BaseAPI/.exec(source)[1];
  const out = [];
  const starts = [...source.matchAll(/\n {4}async (\w+)Raw\(/g)];
  for (let i = 0; i < starts.length; i++) {
    const operationId = starts[i][1];
    const end = i + 1 < starts.length ? starts[i + 1].index : source.length;
    const body = source.slice(starts[i].index, end);
    const before = source.slice(Math.max(0, starts[i].index - 600), starts[i].index);
    const comment = before.slice(before.lastIndexOf('/**'));
    const template = /path: `([^`]+)`/.exec(body)[1];
    const method = /method: '(\w+)'/.exec(body)[1];
    const query = [...body.matchAll(/queryParameters\['([^']+)'\] = requestParameters\['([^']+)'\]/g)].map((m) => ({
      name: m[1],
      param: m[2],
    }));
    const required = [...body.matchAll(/RequiredError\('([^']+)'/g)].map((m) => m[1]);
    const pathParams = [
      ...body.matchAll(/replace\(`\{\$\{"(\w+)"\}\}`, encodeURIComponent\(String\(requestParameters\['(\w+)'\]\)\)\)/g),
    ].map((m) => ({
      name: m[1],
      param: m[2],
    }));
    const bodyMatch = /body: (?:\(0, index_1\.(\w+)ToJSON\)\()?requestParameters\['([^']+)'\]/.exec(body);
    const response = /JSONApiResponse\(response, \(jsonValue\) => \(0, index_1\.(\w+)FromJSON\)/.exec(body);
    const answer = response
      ? response[1]
      : /VoidApiResponse/.test(body)
        ? 'void'
        : /TextApiResponse/.test(body)
          ? 'text'
          : 'json';
    out.push({
      operationId,
      method,
      path: template,
      api,
      ...(/\[WS\]/.test(comment) ? { websocket: true } : {}),
      pathParams,
      query,
      required,
      body: bodyMatch ? { param: bodyMatch[2], model: bodyMatch[1] ?? null } : null,
      answer,
    });
  }
  return out;
}

/** Every operation of the SDK, in the order of its API classes and their methods. */
function sdkOperations() {
  return fs
    .readdirSync(APIS)
    .filter((f) => /Api\.js$/.test(f))
    .sort()
    .flatMap(operationsOf);
}

/** What the server keeps of each operation (the walker reads the rest from the SDK itself). */
function tableRow(op) {
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    api: op.api,
    ...(op.websocket ? { websocket: true } : {}),
  };
}

function write(file = path.join(__dirname, '..', 'src', 'common', 'wire', 'sdk-operations-table.json')) {
  const rows = sdkOperations().map(tableRow);
  const version = require('@pieces.app/pieces-os-client/package.json').version;
  // One operation a line: a diff after an SDK upgrade shows each operation added or removed.
  const out = `{\n  "sdk": ${JSON.stringify(version)},\n  "operations": [\n${rows.map((row) => `    ${JSON.stringify(row)}`).join(',\n')}\n  ]\n}\n`;
  fs.writeFileSync(file, out);
  return rows.length;
}

module.exports = { sdkOperations, tableRow };

if (require.main === module) console.log(`${write(process.argv[2])} operations`);
