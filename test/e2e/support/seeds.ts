import { Seed, SeedTypeEnum } from '@pieces.app/pieces-os-client';

/** A Seed as the SDK builds it: a text fragment with optional metadata. */
export function textSeed(raw: string, metadata: Record<string, unknown> = {}): Seed {
  return {
    type: SeedTypeEnum.SeededAsset,
    asset: {
      application: {
        id: '11111111-1111-4111-8111-111111111111',
        name: 'VS_CODE',
        version: '1.90.0',
        platform: 'LINUX',
        onboarded: true,
        privacy: 'OPEN',
      },
      format: { fragment: { string: { raw } } },
      ...(Object.keys(metadata).length ? { metadata } : {}),
    },
  } as Seed;
}
