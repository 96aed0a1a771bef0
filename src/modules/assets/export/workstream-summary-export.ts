import { MemoryRecord } from '../workstream-summary.reader';
import { mdInline } from './asset-export';

/** Inline code: delimited by more backticks than any run inside it. */
function codeSpan(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/**
 * A workstream summary (a memory) as one Markdown document: the title, the description, the
 * project, source and dates, the files and links, then the text as it was saved (it is Markdown).
 */
export function renderSummaryMarkdown(m: MemoryRecord): string {
  const lines: string[] = [`# ${mdInline(m.name) || 'Untitled summary'}`, ''];
  if (m.description?.trim()) lines.push(m.description.trim(), '');
  const facts: string[] = [];
  if (m.project) facts.push(`- **Project:** ${codeSpan(m.project)}`);
  if (m.source) facts.push(`- **Saved by:** ${mdInline(m.source)}`);
  facts.push(`- **Created:** ${m.created}`);
  if (m.updated !== m.created) facts.push(`- **Updated:** ${m.updated}`);
  lines.push(...facts, '');
  if (m.files.length) lines.push('## Files', '', ...m.files.map((f) => `- ${codeSpan(f)}`), '');
  if (m.links.length)
    lines.push('## Links', '', ...m.links.map((l) => `- <${l.replace(/[<>\s]/g, encodeURIComponent)}>`), '');
  lines.push('## Summary', '', m.text.replace(/\s+$/, ''), '');
  return lines.join('\n');
}
