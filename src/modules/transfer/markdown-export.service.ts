import { Injectable } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExportPages, Group, Row, compareKeys } from './export-pages';
import { fileName, markdown } from './markdown';
import { KIND_BY_NAME } from './record-kinds';
import { RecordSchema } from './record-schema';
import { Progress } from './store-export.service';
import { TransferStore } from './transfer.store';

/** Markdown files written at once. */
const FILE_WRITES = 16;

/** The store's snippets as Markdown files (`trove export --markdown`, docs/TRANSFER.md). */
@Injectable()
export class MarkdownExport {
  constructor(
    private readonly store: TransferStore,
    private readonly pages: ExportPages,
  ) {}

  /**
   * One Markdown file per live snippet (not deleted, not pseudo) in `dir` (created if needed):
   * YAML front matter (id, name, language, tags, websites, created, updated, description), then
   * the text in a fenced code block labelled with its language. Files are named after the
   * snippet's name and a prefix of its id unique in the export; existing files of the same name
   * are replaced. Reads one snapshot, a page at a time.
   */
  async exportMarkdown(dir: string, progress?: Progress): Promise<{ files: number }> {
    await mkdir(dir, { recursive: true });
    const snapshot = await this.store.openSnapshot();
    try {
      const schema = this.store.schema;
      const expected = await this.store.count(snapshot, {
        ...KIND_BY_NAME.get('asset')!,
        where: 'deleted_at IS NULL AND pseudo = FALSE',
      });
      let files = 0;
      const writing = new Set<Promise<void>>();
      const write = async (path: string, text: string) => {
        const promise = writeFile(path, text, 'utf8').finally(() => writing.delete(promise));
        writing.add(promise);
        if (writing.size >= FILE_WRITES) await Promise.race(writing);
      };
      progress?.(0, expected);
      // Each snippet is written once its successor in id order is known (its file name depends on both neighbours).
      let previous: string | null = null;
      let held: { id: string; name: string | null; text: string } | null = null;
      const flush = async (next: string | null) => {
        if (!held) return;
        await write(join(dir, fileName(held.id, held.name, previous, next)), held.text);
        previous = held.id;
        held = null;
        if (++files % 1000 === 0) progress?.(files, expected);
      };
      for await (const groups of this.pages.groups(snapshot, 'asset')) {
        const live = groups.filter(
          (g) => g.root.deleted_at === null && !RecordSchema.record(schema.get('asset'), g.root).pseudo,
        );
        const members = (kind: string, g: Group) => g.members.find((m) => m.schema.spec.kind === kind)?.rows ?? [];
        const tagIds = [...new Set(live.flatMap((g) => members('asset_tag', g).map((l) => l.tag_id as string)))];
        const websiteIds = [
          ...new Set(live.flatMap((g) => members('asset_website', g).map((l) => l.website_id as string))),
        ];
        const tags = new Map(
          (await this.store.byIds(snapshot, schema.get('tag'), tagIds)).map((t) => [t.id as string, t.text as string]),
        );
        const websites = new Map(
          (await this.store.byIds(snapshot, schema.get('website'), websiteIds)).map((w) => [
            w.id as string,
            { url: w.url as string, name: w.name as string },
          ]),
        );
        for (const g of live) {
          const asset = g.root;
          const format = members('format', g)[0];
          const byTime = (a: Row, b: Row) =>
            compareKeys(
              [a.created_at, a.tag_id ?? a.website_id ?? a.id],
              [b.created_at, b.tag_id ?? b.website_id ?? b.id],
            );
          const description = members('annotation', g)
            .filter((a) => a.type === 'DESCRIPTION')
            .sort(byTime)[0];
          const text = markdown({
            id: asset.id as string,
            name: (asset.name as string | null) ?? null,
            language: (format?.specific as string | undefined) ?? 'UNKNOWN',
            tags: members('asset_tag', g)
              .sort(byTime)
              .map((l) => tags.get(l.tag_id as string))
              .filter((t): t is string => t !== undefined),
            websites: members('asset_website', g)
              .sort(byTime)
              .map((l) => websites.get(l.website_id as string))
              .filter((w): w is { url: string; name: string } => w !== undefined),
            created: asset.created_at as string,
            updated: asset.updated_at as string,
            description: (description?.text as string | undefined) ?? null,
            text: (format?.raw as string | undefined) ?? '',
          });
          await flush(asset.id as string);
          held = { id: asset.id as string, name: (asset.name as string | null) ?? null, text };
        }
      }
      await flush(null);
      await Promise.all(writing);
      progress?.(files, expected);
      return { files };
    } finally {
      await snapshot.close();
    }
  }
}
