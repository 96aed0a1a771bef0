import { describe, expect, it } from 'vitest';
import { assetDescription, assetName, assetText, bytes, languageName, relativeTime, safeHttpUrl } from './format';
import type { Asset } from './types';

const now = new Date('2026-12-01T12:00:00Z');

describe('format', () => {
  it('says how long ago', () => {
    expect(relativeTime('2026-12-01T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-12-01T11:40:00Z', now)).toBe('20 min ago');
    expect(relativeTime('2026-12-01T07:00:00Z', now)).toBe('5 h ago');
    expect(relativeTime('2026-11-30T10:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-03-12T10:00:00Z', now)).toBe('12 Mar');
    expect(relativeTime('2024-03-12T10:00:00Z', now)).toBe('12 Mar 2024');
    expect(relativeTime('nope', now)).toBe('');
  });
  it('names languages and sizes', () => {
    expect(languageName('py')).toBe('Python');
    expect(languageName('UNKNOWN')).toBe('Plain text');
    expect(languageName('zig')).toBe('ZIG');
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.5 KB');
    expect(bytes(250 * 1024 * 1024)).toBe('250 MB');
  });
  it("reads an asset's name, text and description", () => {
    const asset = {
      id: 'a',
      name: '  ',
      created: { value: '' },
      updated: { value: '' },
      original: { id: 'f', reference: { id: 'f', fragment: { string: { raw: 'print(1)' } } } },
      annotations: {
        iterable: [
          { id: 'x', type: 'COMMENT', text: 'c' },
          { id: 'y', type: 'DESCRIPTION', text: 'd' },
        ],
      },
    } as Asset;
    expect(assetName(asset)).toBe('Unnamed snippet');
    expect(assetText(asset)).toBe('print(1)');
    expect(assetDescription(asset)).toBe('d');
  });
  it('links only http(s) URLs', () => {
    expect(safeHttpUrl('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:text/html,x')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
  });
});
