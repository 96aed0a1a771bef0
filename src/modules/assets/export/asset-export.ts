import type { HLJSApi } from 'highlight.js';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { readFileSync } from 'node:fs';
import { languageLabel } from '../../intelligence/code-terms';
import { AssetAggregate } from '../wire/asset.wire';

/** highlight.js with all its grammars (~15 MB): loaded on the first export, not at start. */
let loaded: HLJSApi | null = null;
function hljs(): HLJSApi {
  const mod = require('highlight.js') as HLJSApi & { default?: HLJSApi }; // eslint-disable-line @typescript-eslint/no-require-imports
  loaded ??= mod.default ?? mod;
  return loaded;
}

export const EXPORT_TYPES = ['MD', 'HTML'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** `export_type` (or `exportType`) of the query: MD or HTML (any case); anything else is a 400. */
export function parseExportType(value: unknown): ExportType {
  if (value === undefined || value === '')
    throw new InvalidInput('query parameter export_type is required (MD or HTML)');
  const type = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!(EXPORT_TYPES as readonly string[]).includes(type)) {
    throw new InvalidInput(`query parameter export_type must be one of ${EXPORT_TYPES.join(', ')}`);
  }
  return type as ExportType;
}

/** What an export shows, taken once from the asset. */
export interface ExportContent {
  name: string;
  description: string;
  code: string;
  /** The classification code of the original format (`py`, `ts`, `txt`, ...). */
  language: string;
  tags: string[];
  links: Array<{ url: string; name: string }>;
  created: string;
}

const UNTITLED = 'Untitled snippet';

export function exportContent({ asset, formats, annotations, tags, websites }: AssetAggregate): ExportContent {
  const original = formats[0];
  return {
    name: asset.name?.trim() || UNTITLED,
    description: annotations
      .filter((a) => a.type === 'DESCRIPTION')
      .map((a) => a.text.trim())
      .filter(Boolean)
      .join('\n\n'),
    code: original?.raw ?? '',
    language: original?.specific ?? 'txt',
    tags: tags.map((t) => t.text),
    links: websites.map((w) => ({ url: w.url, name: w.name })),
    created: asset.createdAt,
  };
}

/** The highlight.js grammar for a classification code, if highlight.js knows it. */
function grammarOf(code: string): string | undefined {
  const name = code.startsWith('hljs-') ? code.slice(5) : code;
  return hljs().getLanguage(name) ? name : undefined;
}

function infoString(code: string): string {
  if (code === 'txt' || code === 'text' || code === 'UNKNOWN') return 'text';
  return code.startsWith('hljs-') ? code.slice(5) : code;
}

/** Markdown inline text: backslash-escape what would otherwise be markup (and keep it on one line). */
export function mdInline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/([\\`*_{}[\]()<>#+!|~&-])/g, '\\$1');
}

/** A fence longer than any run of backticks inside the code. */
function fence(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `code` in a fenced block with its language (the classification code) as the info string. */
export function fenced(code: string, language: string): string {
  const f = fence(code);
  return `${f}${infoString(language)}\n${code.replace(/\n$/, '')}\n${f}`;
}

/** A complete Markdown document: title, description, fenced code with its language, tags, links. */
export function renderMarkdown(content: ExportContent): string {
  const label = languageLabel(content.language);
  const lines: string[] = [`# ${mdInline(content.name)}`, ''];
  if (content.description) lines.push(content.description, '');
  if (label) lines.push(`*Language: ${mdInline(label)}*`, '');
  lines.push(fenced(content.code, content.language), '');
  if (content.tags.length) lines.push('## Tags', '', content.tags.map((t) => `- ${mdInline(t)}`).join('\n'), '');
  if (content.links.length) {
    lines.push(
      '## Links',
      '',
      content.links
        .map((l) => `- [${mdInline(l.name || l.url)}](<${l.url.replace(/[<>\s]/g, encodeURIComponent)}>)`)
        .join('\n'),
      '',
    );
  }
  lines.push(`---`, '', `Exported from Trove · created ${content.created}`, '');
  return lines.join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

let theme: string | undefined;
/** highlight.js's GitHub theme, inlined so the page stands alone. */
function themeCss(): string {
  theme ??= readFileSync(require.resolve('highlight.js/styles/github.css'), 'utf8');
  return theme;
}

const PAGE_CSS = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#fff}
main{max-width:960px;margin:0 auto;padding:2rem 1rem}h1{margin:0 0 .25rem}.meta{color:#59636e;margin:0 0 1rem}
pre{border:1px solid #d1d9e0;border-radius:6px;overflow:auto}pre code.hljs{padding:1rem;font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
.description p{margin:.5rem 0}ul.tags{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
ul.tags li{background:#ddf4ff;border-radius:1em;padding:0 .75em}`;

/** The code as highlight.js HTML (it escapes the text itself), or just escaped when the language is unknown. */
function highlighted(code: string, language: string): { html: string; grammar?: string } {
  const grammar = grammarOf(language);
  if (!grammar || grammar === 'txt' || grammar === 'text' || grammar === 'plaintext') return { html: escapeHtml(code) };
  return { html: hljs().highlight(code, { language: grammar, ignoreIllegals: true }).value, grammar };
}

/** A standalone HTML page: every user-provided string escaped, the code highlighted by highlight.js. */
export function renderHtml(content: ExportContent): string {
  const label = languageLabel(content.language) ?? content.language;
  const { html, grammar } = highlighted(content.code, content.language);
  const description = content.description
    ? `<section class="description">\n${content.description
        .split(/\n{2,}/)
        .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
        .join('\n')}\n</section>\n`
    : '';
  const tags = content.tags.length
    ? `<section><h2>Tags</h2>\n<ul class="tags">${content.tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul></section>\n`
    : '';
  const links = content.links.length
    ? `<section><h2>Links</h2>\n<ul>${content.links
        .map(
          (l) => `<li><a href="${escapeHtml(l.url)}" rel="noopener noreferrer">${escapeHtml(l.name || l.url)}</a></li>`,
        )
        .join('')}</ul></section>\n`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Trove">
<title>${escapeHtml(content.name)}</title>
<style>
${themeCss()}
${PAGE_CSS}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(content.name)}</h1>
<p class="meta">${escapeHtml(label)} · created <time datetime="${escapeHtml(content.created)}">${escapeHtml(content.created)}</time></p>
${description}<pre><code class="hljs${grammar ? ` language-${escapeHtml(grammar)}` : ''}">${html}</code></pre>
${tags}${links}</main>
</body>
</html>
`;
}
