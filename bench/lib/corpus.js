// Deterministic generator of realistic snippets (code in several languages, and prose notes)
// for the search benchmark. Same seed, same corpus.
'use strict';

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS =
  'get set load save fetch parse build create update delete find resolve validate render format compute merge split sort filter map reduce encode decode encrypt decrypt hash compress open close read write send receive publish subscribe schedule retry cancel flush sync refresh normalize serialize deserialize register dispatch handle emit observe transform convert apply check ensure init reset start stop'.split(
    ' ',
  );
const NOUNS =
  'user account session token config settings file path directory buffer stream request response header payload message event queue job task worker pool connection client server socket cache entry record row column table index query result error logger metric counter timer span trace node tree graph edge vertex list array map set key value item order invoice payment customer product cart price tax address email phone password profile avatar image thumbnail video audio document page section paragraph sentence word token chunk batch shard partition replica cluster region zone bucket object blob schema migration transaction lock mutex channel signal handler callback promise future iterator generator parser lexer compiler module package bundle plugin extension theme layout widget button form field input label modal dialog tooltip menu route controller service repository factory provider adapter gateway proxy middleware filter guard pipe interceptor decorator'.split(
    ' ',
  );
const ADJS =
  'active pending expired invalid default custom remote local cached stale fresh raw parsed encoded signed verified public private internal external primary secondary legacy current previous next first last max min total partial empty full dirty clean async sync lazy eager'.split(
    ' ',
  );
const PROSE =
  'the a this that every each our your when while before after because although however therefore meanwhile also only always never often sometimes usually quickly slowly carefully safely correctly mostly team deploy release review incident outage rollback migration database backup restore monitor alert dashboard latency throughput capacity budget roadmap meeting decision proposal design document checklist runbook onboarding kubernetes docker terraform ansible nginx postgres redis kafka elasticsearch grafana prometheus github gitlab jenkins pipeline staging production feature flag experiment customer support ticket priority severity owner deadline sprint quarter estimate risk mitigation dependency upgrade security vulnerability patch audit compliance privacy consent retention policy'.split(
    ' ',
  );
const TAGS =
  'typescript javascript python go rust java sql bash docker kubernetes react node api auth database cache testing devops security performance frontend backend cli regex git aws terraform config logging metrics async parsing http json yaml css html algorithms notes snippet todo'.split(
    ' ',
  );
const DOMAINS =
  'developer.mozilla.org docs.python.org go.dev doc.rust-lang.org kubernetes.io stackoverflow.com github.com www.postgresql.org redis.io nodejs.org react.dev docs.docker.com'.split(
    ' ',
  );

const cap = (w) => w[0].toUpperCase() + w.slice(1);

class Corpus {
  constructor(seed = 42) {
    this.random = mulberry32(seed);
  }
  int(n) {
    return Math.floor(this.random() * n);
  }
  pick(list) {
    return list[this.int(list.length)];
  }
  /** Zipf-ish: early entries are much more common. */
  skewed(list) {
    return list[Math.floor(list.length * Math.pow(this.random(), 2.2))];
  }
  camel() {
    const parts = [this.pick(VERBS), ...(this.random() < 0.4 ? [this.pick(ADJS)] : []), this.skewed(NOUNS)];
    return parts[0] + parts.slice(1).map(cap).join('');
  }
  snake() {
    return [this.pick(VERBS), ...(this.random() < 0.4 ? [this.pick(ADJS)] : []), this.skewed(NOUNS)].join('_');
  }
  pascal() {
    return [
      ...(this.random() < 0.5 ? [cap(this.pick(ADJS))] : []),
      cap(this.skewed(NOUNS)),
      cap(this.pick(['Service', 'Manager', 'Handler', 'Store', 'Client', 'Factory', 'Builder', 'Reader', 'Writer'])),
    ].join('');
  }
  sentence(min = 8, max = 18) {
    const n = min + this.int(max - min);
    const words = [];
    for (let i = 0; i < n; i++) words.push(this.random() < 0.35 ? this.skewed(NOUNS) : this.skewed(PROSE));
    const s = words.join(' ');
    return cap(s) + '.';
  }
  typescript() {
    const fn = this.camel();
    const cls = this.pascal();
    const a = this.skewed(NOUNS);
    const b = this.camel();
    return [
      `// ${this.sentence(5, 10)}`,
      `export async function ${fn}(${a}: ${cls}, options: { ${this.pick(ADJS)}?: boolean } = {}): Promise<${cls} | null> {`,
      `  const ${b} = await ${a}.${this.camel()}(options);`,
      `  if (!${b}) {`,
      `    throw new Error('${this.pick(ADJS)} ${this.skewed(NOUNS)} not found');`,
      `  }`,
      `  return ${b}.${this.camel()}();`,
      `}`,
    ].join('\n');
  }
  python() {
    const fn = this.snake();
    const a = this.skewed(NOUNS);
    const b = this.snake();
    return [
      `def ${fn}(${a}, ${this.pick(ADJS)}=None):`,
      `    """${this.sentence(6, 12)}"""`,
      `    ${b} = ${a}.${this.snake()}()`,
      `    for ${this.skewed(NOUNS)} in ${b}:`,
      `        if ${this.pick(ADJS)}:`,
      `            yield ${this.snake()}(${a})`,
      `    return ${b}`,
    ].join('\n');
  }
  go() {
    const fn = cap(this.camel());
    const t = this.pascal();
    return [
      `// ${fn} ${this.sentence(5, 10).toLowerCase()}`,
      `func (s *${t}) ${fn}(ctx context.Context, ${this.skewed(NOUNS)} string) (*${this.pascal()}, error) {`,
      `\t${this.camel()}, err := s.${cap(this.camel())}(ctx)`,
      `\tif err != nil {`,
      `\t\treturn nil, fmt.Errorf("${this.pick(VERBS)} ${this.skewed(NOUNS)}: %w", err)`,
      `\t}`,
      `\treturn nil, nil`,
      `}`,
    ].join('\n');
  }
  sql() {
    const t = this.skewed(NOUNS) + 's';
    const u = this.skewed(NOUNS) + 's';
    return [
      `-- ${this.sentence(5, 10)}`,
      `SELECT ${t}.id, ${t}.${this.snake()}, COUNT(${u}.id) AS ${this.pick(ADJS)}_count`,
      `FROM ${t}`,
      `LEFT JOIN ${u} ON ${u}.${this.skewed(NOUNS)}_id = ${t}.id`,
      `WHERE ${t}.${this.pick(ADJS)} = true AND ${t}.created_at > now() - interval '7 days'`,
      `GROUP BY ${t}.id ORDER BY ${this.pick(ADJS)}_count DESC LIMIT 50;`,
    ].join('\n');
  }
  bash() {
    return [
      '#!/usr/bin/env bash',
      'set -euo pipefail',
      `# ${this.sentence(5, 10)}`,
      `${this.snake().toUpperCase()}="\${1:-${this.pick(ADJS)}}"`,
      `docker compose run --rm ${this.skewed(NOUNS)} ${this.pick(VERBS)} --${this.pick(ADJS)} "$${this.snake().toUpperCase()}"`,
      `kubectl rollout status deployment/${this.skewed(NOUNS)}-${this.skewed(NOUNS)}`,
    ].join('\n');
  }
  prose() {
    const n = 3 + this.int(6);
    const lines = [`# ${cap(this.skewed(PROSE))} ${this.skewed(NOUNS)} ${this.skewed(PROSE)}`];
    for (let i = 0; i < n; i++) lines.push(this.sentence());
    return lines.join('\n');
  }
  /** One asset: { name, text, language code, tags, website? }. */
  asset() {
    const kinds = [
      ['ts', () => this.typescript()],
      ['py', () => this.python()],
      ['go', () => this.go()],
      ['sql', () => this.sql()],
      ['sh', () => this.bash()],
      ['md', () => this.prose()],
    ];
    const [specific, make] = this.pick(kinds);
    const text = make();
    const tags = [];
    const nTags = this.int(4);
    for (let i = 0; i < nTags; i++) tags.push(this.skewed(TAGS));
    const name = `${cap(this.pick(VERBS))} ${this.pick(ADJS)} ${this.skewed(NOUNS)}`;
    const website =
      this.random() < 0.3 ? `https://${this.pick(DOMAINS)}/${this.skewed(NOUNS)}/${this.pick(VERBS)}` : null;
    return { name, text, specific, generic: specific === 'md' ? 'TEXT' : 'CODE', tags: [...new Set(tags)], website };
  }
}

module.exports = { Corpus, VERBS, NOUNS, ADJS, PROSE, TAGS, mulberry32 };
