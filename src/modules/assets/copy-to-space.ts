import { IsString, MaxLength, MinLength } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { StoreLabelWire } from '../../common/wire/store-label.wire';
import { Unprocessable } from '../../common/errors/domain-errors';
import { SeedDto } from './dto/seed.dto';
import { AssetWire } from './wire/asset.wire';

/** POST /asset/{asset}/copy: the shared space to copy the snippet into. */
export class CopyToSpaceDto {
  /** The space's name or id (one you are an editor of). */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  space: string;
}

export class CopiedAssetWire {
  /** The copy, as the space holds it (a new id). */
  asset: AssetWire;
  @ApiProperty({ type: StoreLabelWire })
  space: StoreLabelWire;
}

/**
 * The seed that makes a copy of an asset elsewhere: its original text and language, its name,
 * description, tags and links as they are now (nothing generated again: what the user kept is
 * what the space gets). An image has no text to copy.
 */
export function copySeed(asset: AssetWire): SeedDto {
  const original = asset.original.reference;
  const raw = original.fragment?.string?.raw;
  if (raw === undefined)
    throw new Unprocessable(`asset ${asset.id} holds no text (an image?): only text snippets are copied into a space`);
  const description = asset.annotations.iterable.find((a) => a.type === 'DESCRIPTION')?.text;
  return {
    type: 'SEEDED_ASSET',
    asset: {
      format: { fragment: { string: { raw } }, classification: { specific: original.classification.specific } },
      metadata: {
        ...(asset.name ? { name: asset.name } : {}),
        tags: asset.tags.iterable.map((t) => ({ text: t.text })),
        websites: asset.websites.iterable.map((w) => ({ url: w.url, name: w.name })),
        ...(description ? { annotations: [{ type: 'DESCRIPTION', text: description }] } : {}),
      },
    },
  } as SeedDto;
}
