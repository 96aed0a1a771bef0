import { exportContent, renderMarkdown } from '../assets/export/asset-export';
import { withSecretsMasked } from '../assets/sensitives/secret-detector';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { MemoryAnswer } from './queries/ask-memory.query';

export const round = (n: number): number => Math.round(n * 1000) / 1000;

/** ask_pieces_ltm's result: the answer, its sources, the open files not read and the engine that answered. */
export function answerText(answer: MemoryAnswer): string {
  const sources = answer.sources.map((s, i) => {
    const where =
      s.kind === 'file'
        ? s.id
        : s.kind === 'memory'
          ? `trove://memories/${s.id}`
          : s.kind === 'snippet'
            ? `trove://snippets/${s.id}`
            : `conversation ${s.id}`;
    return `${i + 1}. ${s.title} (${s.time ? `${s.time}, ` : ''}${where}, score ${round(s.score)})`;
  });
  return [
    answer.text,
    sources.length ? `**Sources**\n${sources.join('\n')}` : '',
    answer.skippedFiles.length ? `**Open files not read**\n${answer.skippedFiles.map((f) => `- ${f}`).join('\n')}` : '',
    `_${answer.engine}_`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * A snippet as Markdown (the export's document: title, description, fenced text, tags, links); the secrets found in it masked unless `reveal`, with a line saying so
 * (the resource reads take no argument: always masked).
 */
export function snippetMarkdown(a: AssetAggregate, reveal = false): string {
  const markdown = renderMarkdown(exportContent(reveal ? a : withSecretsMasked(a)));
  if (a.sensitives.length === 0) return markdown;
  const kinds = [...new Set(a.sensitives.map((s) => s.name))].join(', ');
  const note = reveal
    ? `This snippet holds ${a.sensitives.length} secret(s) (${kinds}), shown as asked.`
    : `This snippet holds ${a.sensitives.length} secret(s) (${kinds}), masked here; call get_snippet with reveal_secrets: true only if the user needs them.`;
  return `${markdown}\n\n> ${note}\n`;
}
