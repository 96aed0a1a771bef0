import { parse as parseEnv } from 'dotenv';
import { parse as parseIni } from 'ini';
import { parse as parseToml } from 'smol-toml';
import { Doc, SnippetKind, isDoc, keyedDocument, keysOf, kind, listOf, shortList, str } from './kind';

/**
 * Package manifests and key-value configuration: package.json and composer.json by their
 * package, JSON by its keys, TOML (Cargo.toml, pyproject.toml by their package) and INI by their
 * sections and keys, .env by its variables (never their values: they are often secrets). Each read
 * by its parser (JSON.parse, smol-toml, ini, dotenv).
 */

/** A package's manifest: its name and version, scripts and dependencies. */
function packageManifest(doc: Doc, manager: string, file: string): SnippetKind | undefined {
  const name = str(doc.name);
  if (!name) return undefined;
  const version = str(doc.version);
  const dependencies = [...keysOf(doc.dependencies), ...keysOf(doc.require)].filter(
    (d) => d !== 'php' && !d.startsWith('ext-'),
  );
  const scripts = keysOf(doc.scripts);
  const what = [
    scripts.length ? `scripts ${listOf(scripts, 3)}` : '',
    dependencies.length
      ? `${dependencies.length} ${dependencies.length === 1 ? 'dependency' : 'dependencies'} (${shortList(dependencies, 3)})`
      : '',
  ].filter(Boolean);
  return kind(
    `${name}${version ? ` ${version}` : ''} (${file})`,
    `${/^(?:[aeiou]|npm)/i.test(manager) ? 'An' : 'A'} ${manager} manifest of ${name}${version ? ` ${version}` : ''}${what.length ? `: ${what.join(', ')}` : ''}`,
    [manager.split(' ')[0], 'manifest', name.replace(/^@[^/]+\//, '')],
  );
}

export function understandJson(text: string): SnippetKind | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(doc)) {
    const first = doc.find(isDoc);
    const fields = first ? Object.keys(first) : [];
    return kind(
      `JSON list of ${doc.length}${fields.length ? `: ${shortList(fields, 3)}` : ''}`,
      `JSON array of ${doc.length} ${doc.length === 1 ? 'item' : 'items'}${fields.length ? ` with fields ${listOf(fields, 4)}` : ''}`,
      ['json', ...fields.slice(0, 3)],
    );
  }
  if (!isDoc(doc)) return undefined;
  if (
    isDoc(doc.require) ||
    (typeof doc.name === 'string' && doc.name.includes('/') && !doc.name.startsWith('@') && isDoc(doc.autoload))
  )
    return packageManifest(doc, 'Composer package', 'composer.json');
  if (
    typeof doc.name === 'string' &&
    (doc.version !== undefined ||
      isDoc(doc.dependencies) ||
      isDoc(doc.devDependencies) ||
      isDoc(doc.scripts) ||
      doc.main !== undefined)
  )
    return packageManifest(doc, 'npm package', 'package.json');
  if (isDoc(doc.compilerOptions)) {
    const options = Object.keys(doc.compilerOptions);
    return kind(
      `tsconfig: ${shortList(options, 3)}`,
      `TypeScript compiler configuration setting ${listOf(options, 4)}`,
      ['typescript', 'tsconfig'],
    );
  }
  return keyedDocument(doc, 'JSON', 'JSON object');
}

export function understandToml(text: string): SnippetKind | undefined {
  let doc: Doc;
  try {
    doc = parseToml(text.slice(0, 100_000));
  } catch {
    return undefined;
  }
  const pkg = isDoc(doc.package)
    ? doc.package
    : isDoc(doc.project)
      ? doc.project
      : isDoc(doc.tool) && isDoc(doc.tool.poetry)
        ? doc.tool.poetry
        : undefined;
  if (pkg && str(pkg.name)) {
    const cargo = isDoc(doc.package);
    const deps = cargo
      ? keysOf(doc.dependencies)
      : Array.isArray(pkg.dependencies)
        ? pkg.dependencies.map((d) => String(d).split(/[<>=~!;\s[]/)[0])
        : keysOf(pkg.dependencies);
    return packageManifest(
      { ...pkg, dependencies: Object.fromEntries(deps.map((d) => [d, ''])), scripts: undefined },
      cargo ? 'Cargo package' : 'Python project',
      cargo ? 'Cargo.toml' : 'pyproject.toml',
    );
  }
  return sectioned('TOML', doc);
}

/** INI and TOML without a package: their sections and the keys of the first ones, or their keys. */
function sectioned(format: string, doc: Doc): SnippetKind | undefined {
  const sections = Object.keys(doc).filter((k) => isDoc(doc[k]));
  const keys = Object.keys(doc).filter((k) => !isDoc(doc[k]));
  if (!sections.length && !keys.length) return undefined;
  if (!sections.length)
    return kind(`${format}: ${shortList(keys, 4)}`, `${format} settings ${listOf(keys, 4)}`, [
      format,
      ...keys.slice(0, 3),
    ]);
  const inner = keysOf(doc[sections[0]]);
  return kind(
    `${format}: [${shortList(sections, 3)}]`,
    `${format} configuration with ${sections.length === 1 ? 'section' : 'sections'} ${listOf(sections, 4)}${inner.length ? ` (${sections[0]}: ${listOf(inner, 3)})` : ''}`,
    [format, ...sections.slice(0, 3)],
  );
}

export function understandIni(text: string): SnippetKind | undefined {
  let doc: Doc;
  try {
    doc = parseIni(text.slice(0, 100_000)) as Doc;
  } catch {
    return undefined;
  }
  return sectioned('INI', doc);
}

/** `.env`: every meaningful line `NAME=value` (or `export NAME=value`). */
export function isDotenv(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() && !/^\s*#/.test(l));
  return (
    lines.length > 0 &&
    lines.every((l) => /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*=/.test(l)) &&
    lines.some((l) => /^\s*(?:export\s+)?[A-Z][A-Z0-9_]*=/.test(l))
  );
}

export function understandDotenv(text: string): SnippetKind | undefined {
  const names = Object.keys(parseEnv(text.replace(/^\s*export\s+/gm, '')));
  if (!names.length) return undefined;
  const prefixes = [...new Set(names.map((n) => n.split('_')[0]).filter((p) => p.length > 1))];
  return kind(`.env: ${shortList(names, 3)}`, `Environment file setting ${listOf(names, 4)}`, [
    'env',
    'config',
    ...prefixes.slice(0, 3),
  ]);
}
