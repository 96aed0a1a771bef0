// Names, descriptions and language of snippets that define nothing (issue 45 items 1, 2, 5), on
// files of these kinds from Debian and npm packages: Dockerfiles, SQL, shell scripts, CI
// workflows, YAML, package manifests, TOML, INI, .env, HCL, nginx and Apache configuration,
// Makefiles, CSS, HTML, Markdown. Split by package (a hash of its name) into a development half
// (rules were built and tuned on it) and a held-out half (reported). Each file's key entity is
// labelled by a rule of its own (below, `label`), independent of the namer: a package.json's
// `name`, a Kubernetes object's kind and name, a workflow's first job, a Compose file's first
// service, the first table of an SQL file's first statement, a Dockerfile's last `FROM` image, the
// first selector of a stylesheet, the first heading of a Markdown file, ...
//
//   bash eval/snippet-kinds-fetch.sh              # Debian packages -> /tmp/trove-snippet-kinds/debs
//   npx nest build && node eval/snippet-kinds.js [--split dev|heldout] [--dist dist] [--base <dist of the build before>]
//
// Sources: the extracted Debian packages of the fetch script, the installed system's
// /usr/share/doc/*/examples, and the npm packages in node_modules (their package.json, READMEs,
// stylesheets, workflows, Makefiles, scripts). Nothing of them is committed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const root = path.join(__dirname, '..');
const split = opt('split', 'heldout');
const debs = opt('debs', '/tmp/trove-snippet-kinds/debs');
const dists = [opt('dist', path.join(root, 'dist')), opt('base', undefined)]
  .filter(Boolean)
  .map((d) => path.resolve(d));

const MAX_BYTES = 20_000;
const PER_PACKAGE_KIND = 5;

/** The kind a file is by its name and place (the expected language code beside it). */
function kindOf(file) {
  const base = path.basename(file);
  const lower = file.toLowerCase();
  if (/^(?:Dockerfile|Containerfile)(?:\.[\w-]+)?$/.test(base)) return ['dockerfile', 'dockerfile'];
  if (/\.sql$/i.test(base)) return ['sql', 'sql'];
  if (/\.(?:hcl|tf)$/.test(base)) return ['hcl', 'hcl'];
  if (/^\.env(?:\.[\w-]+)?$|\.env$/.test(base)) return ['env', 'sh'];
  if (/\.toml$/.test(base)) return ['toml', 'toml'];
  if (/\.ini$/.test(base)) return ['ini', 'ini'];
  if (/^(?:GNU)?[Mm]akefile$/.test(base)) return ['makefile', 'hljs-makefile'];
  // (not the init script, the logrotate rule or the man page that also carry nginx's name)
  if (
    /nginx/.test(lower) &&
    (/\.conf$/.test(base) || /\/etc\/nginx\//.test(lower)) &&
    !/\/(?:init\.d|logrotate\.d|default|ufw)\//.test(lower)
  )
    return ['nginx', 'hljs-nginx'];
  if (/apache/.test(lower) && /\.conf$/.test(base)) return ['apache', 'hljs-apache'];
  if (/\.ya?ml$/.test(base)) return ['yaml', 'yaml'];
  if (base === 'package.json') return ['package.json', 'json'];
  if (/\.css$/.test(base) && !/\.min\.css$/.test(base)) return ['css', 'css'];
  if (/^readme\.md$/i.test(base)) return ['markdown', 'md'];
  if (/\.html?$/.test(base)) return ['html', 'html'];
  if (/\.sh$/.test(base)) return ['shell', 'sh'];
  return undefined;
}

function* walk(dir, depth = 0) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < 12 && e.name !== 'node_modules') yield* walk(p, depth + 1);
    } else if (e.isFile()) yield p;
  }
}

/** Every (package, file) of the three sources. */
function collect() {
  const out = [];
  if (fs.existsSync(debs))
    for (const pkg of fs.readdirSync(debs))
      for (const file of walk(path.join(debs, pkg))) out.push({ source: `debian:${pkg}`, file });
  for (const dir of fs.existsSync('/usr/share/doc') ? fs.readdirSync('/usr/share/doc') : []) {
    const examples = path.join('/usr/share/doc', dir, 'examples');
    if (fs.existsSync(examples)) for (const file of walk(examples)) out.push({ source: `debian:${dir}`, file });
  }
  const modules = path.join(root, 'node_modules');
  for (const name of fs.readdirSync(modules)) {
    const dirs = name.startsWith('@') ? fs.readdirSync(path.join(modules, name)).map((n) => `${name}/${n}`) : [name];
    for (const pkg of dirs) {
      if (pkg.startsWith('.')) continue;
      const top = path.join(modules, pkg);
      for (const file of walk(top)) {
        // a package's own package.json only (not its fixtures' nor its dist's)
        if (path.basename(file) === 'package.json' && path.dirname(file) !== top) continue;
        out.push({ source: `npm:${pkg}`, file });
      }
    }
  }
  const perPackageKind = new Map();
  const rows = [];
  for (const { source, file } of out) {
    const kind = kindOf(file);
    if (!kind) continue;
    let stat;
    try {
      stat = fs.statSync(file);
    } catch {
      continue;
    }
    if (stat.size < 30 || stat.size > MAX_BYTES) continue;
    const key = `${source}|${kind[0]}`;
    const n = perPackageKind.get(key) ?? 0;
    if (n >= PER_PACKAGE_KIND) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (text.includes('\u0000')) continue;
    perPackageKind.set(key, n + 1);
    const half = createHash('sha1').update(source).digest()[0] % 2 === 0 ? 'dev' : 'heldout';
    rows.push({ source, file, kind: kind[0], expected: kind[1], split: half, text });
  }
  return rows;
}

const stripQuotes = (s) => s.replace(/^[`"'[]+|[`"'\]]+$/g, '');

/** The key entity of a file, by a rule of its own (or undefined: the file is left out). */
function label(row) {
  const { kind, text } = row;
  const lines = text.split('\n');
  const first = (re) => {
    for (const line of lines) {
      const m = re.exec(line);
      if (m) return m[1];
    }
    return undefined;
  };
  switch (kind) {
    case 'package.json': {
      try {
        return [JSON.parse(text).name].filter((n) => typeof n === 'string');
      } catch {
        return undefined;
      }
    }
    case 'dockerfile': {
      const froms = lines.map((l) => /^\s*FROM\s+(?:--\S+\s+)*(\S+)/i.exec(l)?.[1]).filter(Boolean);
      return froms.length ? [froms[froms.length - 1]] : undefined;
    }
    case 'sql': {
      const body = text
        .replace(/\/\*[\s\S]*?\*\//g, ' ')
        .replace(/--[^\n]*/g, '')
        .replace(/^\s*#[^\n]*/gm, '');
      const m =
        /\b(?:FROM|INTO|UPDATE|TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?|ON)\s+((?:[`"[]?\w+[`"\]]?\.)?[`"[]?[\w$]+[`"\]]?)/i.exec(
          body,
        );
      return m ? [stripQuotes(m[1].split('.').pop())] : undefined;
    }
    case 'hcl': {
      const block = first(/^(?:resource|data)\s+"[^"]+"\s+"([^"]+)"/) ?? first(/^\s*([A-Za-z_][\w-]*)\s*(?:=|\{|")/);
      return block ? [block] : undefined;
    }
    case 'env': {
      const v = first(/^\s*(?:export\s+)?([A-Za-z_][\w.]*)\s*[=:]/);
      return v ? [v] : undefined;
    }
    case 'toml': {
      const name = /^\[(?:package|project|tool\.poetry)\][^[]*?^name\s*=\s*"([^"]+)"/ms.exec(text)?.[1];
      const section = first(/^\s*\[+\s*([^\]]+?)\s*\]+/);
      const key = first(/^\s*([A-Za-z0-9_"'.-]+)\s*=/);
      const entity = name ?? section ?? key;
      return entity ? [stripQuotes(entity)] : undefined;
    }
    case 'ini': {
      const entity = first(/^\s*\[([^\]]+)\]/) ?? first(/^\s*([\w.-]+)\s*=/);
      return entity ? [entity.trim()] : undefined;
    }
    case 'makefile': {
      const target = first(/^([A-Za-z0-9_][\w./-]*)\s*:(?!=)/);
      return target ? [target] : undefined;
    }
    case 'nginx': {
      const host = first(/^\s*server_name\s+([^\s;]+)/);
      const location = first(/^\s*location\s+(?:[=~^*]+\s*)?([^\s{]+)/);
      const directive = first(/^\s*([a-z_]+)\s+[^;]*;/);
      const entity = (host && host !== '_' ? host : undefined) ?? location ?? directive;
      return entity ? [entity] : undefined;
    }
    case 'apache': {
      const entity =
        first(/^\s*ServerName\s+(\S+)/i) ??
        first(/^\s*<(?:Directory|Location|Files)(?:Match)?\s+"?([^">]+)"?>/i) ??
        first(/^\s*<?([A-Z][A-Za-z]+)\b/);
      return entity ? [entity.trim()] : undefined;
    }
    case 'yaml': {
      let doc;
      try {
        doc = require('js-yaml').load(text, { json: true });
      } catch {
        return undefined;
      }
      if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
      if (typeof doc.kind === 'string' && doc.metadata?.name) return [doc.kind, String(doc.metadata.name)];
      if (doc.jobs && typeof doc.jobs === 'object') return [Object.keys(doc.jobs)[0]].filter(Boolean);
      if (doc.services && typeof doc.services === 'object') return [Object.keys(doc.services)[0]].filter(Boolean);
      const keys = Object.keys(doc);
      return keys.length ? [keys[0]] : undefined;
    }
    case 'css': {
      const body = text.replace(/\/\*[\s\S]*?\*\//g, ' ');
      const m = /(?:^|[};])\s*([^{};@][^{};]*?)\s*\{/.exec(body);
      return m ? [m[1].split(',')[0].replace(/\s+/g, ' ').trim()] : undefined;
    }
    case 'markdown': {
      // its title: the first of its highest-level ATX headings
      const headings = lines.map((l) => /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(l)).filter(Boolean);
      if (!headings.length) return undefined;
      const top = Math.min(...headings.map((h) => h[1].length));
      const heading = headings.find((h) => h[1].length === top)[2];
      // without its badges (images, also inside links) and with its links' text
      const plain = heading
        .replace(/!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)|\[([^\]]*)\]\[[^\]]*\]/g, '$1$2')
        .replace(/[*_`]/g, '')
        .replace(/<[^>]+>/g, '')
        .trim();
      return plain ? [plain] : undefined;
    }
    case 'html': {
      const form = /<form\b[^>]*\b(?:id|name)=["']([^"']+)/i.exec(text)?.[1];
      const title = /<title[^>]*>\s*([^<]+?)\s*<\/title>/i.exec(text)?.[1];
      const h1 = /<h1[^>]*>\s*([^<]+?)\s*<\/h1>/i.exec(text)?.[1];
      const entity = form ?? title ?? h1;
      return entity ? [entity.replace(/\s+/g, ' ')] : undefined;
    }
    case 'shell': {
      // the commands the script runs: the first word of its command lines
      const builtins = new Set(
        'if then else elif fi for while until do done case esac function return local export set unset shift echo printf read exit cd test true false [ [[ { } eval exec source . trap wait break continue'.split(
          ' ',
        ),
      );
      const commands = lines
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => /^(?:sudo\s+)?([A-Za-z][\w.+-]*)(?=\s|$)/.exec(l)?.[1])
        .filter((w) => w && !builtins.has(w) && !/^[A-Za-z_]\w*=/.test(w));
      return commands.length ? [commands] : undefined;
    }
    default:
      return undefined;
  }
}

/** Does the name name the key entity? (a script: any command it runs) */
function names(name, entity) {
  if (!name) return false;
  const n = name.toLowerCase();
  if (Array.isArray(entity[0]))
    return entity[0].some((c) =>
      new RegExp(`(?:^|[^\\w-])${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').toLowerCase()}(?:$|[^\\w-])`).test(n),
    );
  return entity.every((e) => n.includes(String(e).toLowerCase()));
}

/** One sentence (a capital, one full stop at the end, <= 200 characters) saying more than length and language. */
function goodDescription(description, languageLabel) {
  if (!description) return false;
  const oneSentence =
    /^[A-Z"`]/.test(description) &&
    description.endsWith('.') &&
    description.length <= 200 &&
    !/[.!?]\s+[A-Z]/.test(description.slice(0, -1));
  const bare = new RegExp(
    `^\\d+-line (?:${languageLabel ? `${languageLabel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ` : ''})?snippet\\.$`,
    'i',
  );
  const noteOnly = /^(?:[\w#+. -]+ )?note of \d+ words?\.$/i;
  return oneSentence && !bare.test(description) && !noteOnly.test(description);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const pct = (a, n) => (n ? ((100 * a) / n).toFixed(1) : '-');

async function measure(dist, rows) {
  const load = (p) => require(path.join(dist, 'src', 'modules', p));
  const { LanguageDetector } = load('intelligence/language-detector.service');
  const { CodeTerms } = load('intelligence/code-terms');
  const { AssetEnrichment } = load('assets/asset-enrichment');
  const detector = new LanguageDetector();
  const terms = new CodeTerms();
  const enrichment = new AssetEnrichment(terms, null, null);
  const all = { name: true, description: true, tags: true };
  // warm-up (JIT, the parsers' first calls): the first files of each kind, as a server that has saved a few
  const seen = new Map();
  for (const r of rows) {
    if ((seen.get(r.kind) ?? 0) >= 3) continue;
    seen.set(r.kind, (seen.get(r.kind) ?? 0) + 1);
    for (let i = 0; i < 3; i++) enrichment.suggest(r.text, { generic: 'CODE', specific: r.expected }, all);
  }
  const results = [];
  for (const r of rows) {
    const report = await detector.analyze(r.text, {});
    const specific = report.classification.specific;
    const generic = report.classification.generic;
    const t = process.hrtime.bigint();
    const generated = enrichment.suggest(r.text, { generic, specific }, all);
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    results.push({ ...r, predicted: specific, generated, ms, languageLabel: terms.languageLabel(specific) });
  }
  if (typeof detector.onApplicationShutdown === 'function') await detector.onApplicationShutdown();
  return results;
}

async function main() {
  const rows = collect()
    .filter((r) => r.split === split)
    .map((r) => ({ ...r, entity: label(r) }));
  const labelled = rows.filter((r) => r.entity);
  const packages = new Set(labelled.map((r) => r.source));
  console.log(
    `${split} split: ${labelled.length} files (${rows.length - labelled.length} without a labelled entity left out) of ${packages.size} packages`,
  );
  const kinds = [...new Set(labelled.map((r) => r.kind))].sort();
  for (const dist of dists) {
    const results = await measure(dist, labelled);
    console.log(`\n## ${path.relative(root, dist) || dist}\n`);
    console.log('| kind | files | packages | language % | names the entity % | good description % |');
    console.log('|---|---:|---:|---:|---:|---:|');
    const line = (label, list) => {
      const lang = list.filter((r) => r.predicted === r.expected).length;
      const named = list.filter((r) => names(r.generated.name, r.entity)).length;
      const described = list.filter((r) => goodDescription(r.generated.description, r.languageLabel)).length;
      console.log(
        `| ${label} | ${list.length} | ${new Set(list.map((r) => r.source)).size} | ${pct(lang, list.length)} | ${pct(named, list.length)} | ${pct(described, list.length)} |`,
      );
    };
    for (const k of kinds)
      line(
        k,
        results.filter((r) => r.kind === k),
      );
    line('**all**', results);
    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    const slow = (k) => {
      const t = results
        .filter((r) => r.kind === k)
        .map((r) => r.ms)
        .sort((a, b) => a - b);
      return `${k} ${percentile(t, 50).toFixed(2)}/${percentile(t, 95).toFixed(2)}/${t[t.length - 1].toFixed(1)}`;
    };
    console.log(`\nBy kind, p50/p95/max ms: ${kinds.map(slow).join('; ')}`);
    console.log(
      `\nTime of a save's naming, description and tags (suggest): p50 ${percentile(times, 50).toFixed(3)} ms, p95 ${percentile(times, 95).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms, max ${times[times.length - 1].toFixed(1)} ms`,
    );
    if (args.includes('--misses')) {
      for (const r of results.filter((x) => !names(x.generated.name, x.entity)).slice(0, Number(opt('misses', 40)))) {
        console.log(
          `MISS ${r.kind} ${r.source} ${path.basename(r.file)} lang=${r.predicted} entity=${JSON.stringify(r.entity).slice(0, 80)} name=${JSON.stringify(r.generated.name)}`,
        );
      }
      for (const r of results.filter((x) => !goodDescription(x.generated.description, x.languageLabel)).slice(0, 20)) {
        console.log(`DESC ${r.kind} ${path.basename(r.file)} ${JSON.stringify(r.generated.description)}`);
      }
      for (const r of results.filter((x) => x.predicted !== x.expected).slice(0, 30))
        console.log(`LANG ${r.kind} ${r.source} ${path.basename(r.file)} ${r.expected} -> ${r.predicted}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
