import { ApiProperty } from '@nestjs/swagger';

/** Where a result of a search across stores comes from (`X-Trove-Space: *` on a team deployment, docs/TEAMS.md). */
export class StoreLabelWire {
  /** The shared space's id; null for the caller's own store. */
  @ApiProperty({ type: String, nullable: true })
  space: string | null;
  /** The space's name; `mine` for the caller's own store. */
  name: string;
  @ApiProperty({ enum: ['owner', 'reader', 'editor'] })
  role: 'owner' | 'reader' | 'editor';
}
