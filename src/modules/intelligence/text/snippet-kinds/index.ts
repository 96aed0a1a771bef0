import { isLogrotate } from '../../language/config-rules';
import { definitionsOf } from '../code-outline';
import { SnippetKind } from './kind';
import { understandDotenv, understandIni, understandJson, understandToml, isDotenv } from './manifests';
import {
  understandApache,
  understandDockerfile,
  understandHcl,
  understandLogrotate,
  understandMakefile,
  understandNginx,
} from './servers';
import { understandShell } from './shell';
import { understandSql } from './sql';
import { understandCss, understandFetch, understandHtml, understandMarkdown } from './web';
import { understandYaml } from './yaml-manifests';

export type { SnippetKind } from './kind';

/** The family that reads a snippet of each language (its classification.specific code). */
const BY_LANGUAGE: Readonly<Record<string, (text: string) => SnippetKind | undefined>> = {
  sql: understandSql,
  ddl: understandSql,
  dml: understandSql,
  sh: understandShell,
  bash: understandShell,
  zsh: understandShell,
  'hljs-shell': understandShell,
  'hljs-bash': understandShell,
  curl: understandShell,
  yaml: understandYaml,
  yml: understandYaml,
  json: understandJson,
  // (an INI file with a quoted value reads as TOML to the detector; TOML's parser turns it down)
  toml: (text) => understandToml(text) ?? understandIni(text),
  ini: understandIni,
  dockerfile: understandDockerfile,
  'hljs-dockerfile': understandDockerfile,
  'hljs-makefile': understandMakefile,
  hcl: understandHcl,
  tf: understandHcl,
  'hljs-nginx': understandNginx,
  'hljs-apache': understandApache,
  css: understandCss,
  scss: understandCss,
  html: understandHtml,
  htm: understandHtml,
  md: understandMarkdown,
  markdown: understandMarkdown,
};

/** Languages whose snippets are code that may define functions: only a snippet defining none is read here. */
const CODE_WITH_CALLS = new Set(['js', 'ts', 'jsx', 'tsx', 'mjs']);

/**
 * What a snippet that is not a definition is about (a query, a command, a manifest, a rule, a
 * page), or undefined when its family does not read it: then the snippet is named as before
 * (code-terms.ts), after what it defines or its first line. A shell script defining functions
 * stays named after them.
 */
export function understandSnippet(text: string, language: string | undefined): SnippetKind | undefined {
  if (!language || !text.trim()) return undefined;
  const body = text.slice(0, 200_000);
  if (['sh', 'bash', 'ini', 'hljs-properties', 'txt'].includes(language) && isDotenv(body))
    return understandDotenv(body);
  // logrotate has no language of its own (plain text; a client may label it otherwise): its structure says what it is
  if (isLogrotate(body)) return understandLogrotate(body);
  const read = BY_LANGUAGE[language];
  if (read) {
    if (read === understandShell && definitionsOf(body).length) return undefined;
    return read(body);
  }
  if (CODE_WITH_CALLS.has(language) && definitionsOf(body).length === 0) return understandFetch(body);
  return undefined;
}
