'use strict';
/** A Seed for POST /assets/create from a generated asset (bench/lib/corpus.js), as an editor plugin sends it. */
function seedOf(a, classified) {
  return {
    asset: {
      application: {
        id: '11111111-1111-4111-8111-111111111111',
        name: 'VS_CODE',
        version: '1.90.0',
        platform: 'LINUX',
        onboarded: true,
        privacy: 'OPEN',
      },
      format: {
        fragment: { string: { raw: a.text } },
        ...(classified ? { classification: { generic: a.generic, specific: a.specific } } : {}),
      },
      metadata: {
        name: a.name,
        tags: a.tags.map((text) => ({ text })),
        ...(a.website ? { websites: [{ url: a.website, name: 'docs' }] } : {}),
      },
    },
  };
}

module.exports = { seedOf };
