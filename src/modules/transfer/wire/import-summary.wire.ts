import { ApiProperty } from '@nestjs/swagger';

/** What POST /trove/import did (import-runs.ts' ImportSummary). */
export class ImportSummaryWire {
  /** The format read: `ndjson` (a Trove export), `vscode` (a VS Code snippet file) or `masscode` (massCode's db.json). */
  @ApiProperty({ enum: ['ndjson', 'vscode', 'masscode'] })
  format: string;

  /** Records read (NDJSON: record lines; snippets: the records they became). */
  records: number;

  /** Records created, per kind (`asset`, `format`, `tag`, ...). */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' } })
  created: Record<string, number>;

  /** Records not created, per kind: already in the store (same id, or same tag text, URL, application, model), referring to a record that is not there, or (snippets) not snippets. */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' } })
  skipped: Record<string, number>;
}
