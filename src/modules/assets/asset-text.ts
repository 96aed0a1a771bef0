import { SeedDto } from './dto/seed.dto';
import { InvalidInput } from '../../common/errors/domain-errors';
import { TransferableStringDto } from '../../common/wire/dto/common.dto';

/** The text a TransferableString carries: `raw`, or base64 / data-URL encoded UTF-8. */
export function textOf(value: TransferableStringDto | undefined): string | undefined {
  if (!value) return undefined;
  if (typeof value.raw === 'string') return value.raw;
  const base64 = value.base64 ?? value.base64_url ?? value.base64Url;
  if (base64 !== undefined) return Buffer.from(base64, /[-_]/.test(base64) ? 'base64url' : 'base64').toString('utf8');
  const dataUrl = value.data_url ?? value.dataUrl;
  if (dataUrl !== undefined) {
    const match = /^data:[^,]*?(;base64)?,(.*)$/s.exec(dataUrl);
    if (!match) throw new InvalidInput('data_url is not a data: URL');
    return match[1] ? Buffer.from(match[2], 'base64').toString('utf8') : decodeURIComponent(match[2]);
  }
  return undefined;
}

/** The text of an asset seed, or a 400 saying what is missing. */
export function seedText(seed: SeedDto | undefined): string {
  if (!seed?.asset) throw new InvalidInput('a Seed with asset.format.fragment.string.raw is required');
  if (seed.type && seed.type !== 'SEEDED_ASSET') {
    throw new InvalidInput(`seed type ${seed.type} cannot create an asset; use SEEDED_ASSET`);
  }
  const format = seed.asset.format;
  const text = textOf(format.fragment?.string) ?? textOf(format.file?.string);
  if (text === undefined) {
    throw new InvalidInput('asset.format.fragment.string.raw is required (binary formats are not supported)');
  }
  if (text.includes('\u0000')) throw new InvalidInput('asset text must not contain NUL characters');
  return text;
}

/** Why a link cannot be stored, or null: only absolute http(s) URLs are. */
export function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return 'must be an absolute http(s) URL';
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:'
    ? null
    : `must be an http(s) URL (not ${parsed.protocol})`;
}

/** Normalised URL, or a 400 naming the bad value. Only http(s) links are stored. */
export function normaliseUrl(url: string): string {
  const problem = urlProblem(url);
  if (problem) throw new InvalidInput(`website url "${url}" ${problem}`);
  return new URL(url.trim()).toString();
}

export function normaliseTag(text: string): string {
  const tag = text.trim().replace(/\s+/g, ' ');
  if (!tag) throw new InvalidInput('tag text must not be empty');
  return tag;
}

/**
 * A tag as tags are compared (the search index, enrichment, drafts): the normal form of a tag (normaliseTag) (trimmed, spaces
 * collapsed), lower-cased, since tags match case-insensitively. A blank text (an empty item of a
 * query's tag list) is '' rather than normaliseTag's 400: queries drop it.
 */
export function tagKey(text: string): string {
  return text.trim() ? normaliseTag(text).toLowerCase() : '';
}
