import { AssetsApi } from '@pieces.app/pieces-os-client';
import { Database } from '../../src/common/database/database.service';
import { toJson } from '../../src/common/http/json-writers';
import { AssetReader } from '../../src/modules/assets/asset.reader';
import { AssetAggregate, assetWire } from '../../src/modules/assets/wire/asset.wire';
import { http } from './support/http';
import { textSeed } from './support/seeds';
import { useTestServer } from './support/server';

/**
 * An asset's reply is written by its own JSON writer (the first format's fields once, not three
 * times): what is served must be exactly what JSON.stringify makes of the same asset.
 */
describe("an asset's JSON", () => {
  const server = useTestServer();
  let assets: AssetsApi;

  beforeAll(() => {
    assets = new AssetsApi(server.sdk);
  });

  /** The asset as this process reads it, mapped as every endpoint maps it. */
  function aggregate(id: string): Promise<AssetAggregate> {
    const db = server.app.get(Database);
    return db.read((em) => server.app.get(AssetReader).one(em, id));
  }

  // Strings that look like the keys the writer cuts at, inside values, and text JSON must escape.
  const tricky = [
    'const o = {"formats":{"iterable":[]},"asset":"x"}; // ,"formats": and ,"asset": inside a string',
    'line one\n\tline "two" \\ back\u0001slash \u2028 é 日本 😀',
  ];

  it.each([
    ['plain', 'print("hello")', {}],
    [
      'tricky content, name and links',
      tricky[0],
      {
        name: tricky[1],
        tags: [{ text: 'a "tag"' }, { text: 'b' }],
        websites: [{ url: 'https://example.com/"q"', name: 'ex' }],
        annotations: [{ type: 'DESCRIPTION', text: tricky[1] }],
      },
    ],
    ['escapes in the content', tricky[1], { name: '' }],
  ])('serves exactly what JSON.stringify writes (%s), with and without content', async (_label, raw, metadata) => {
    const { id } = await assets.assetsCreateNewAsset({ seed: textSeed(raw, metadata) });
    for (const query of ['', '?transferables=false']) {
      const res = await http(server.baseUrl, 'GET', `/asset/${id}${query}`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify(assetWire(await aggregate(id), query === '')));
      expect(res.json.original).toEqual(res.json.preview.base);
    }
  });

  it('writes every format of an asset with several, and its links', async () => {
    const { id } = await assets.assetsCreateNewAsset({ seed: textSeed(tricky[0], { tags: [{ text: 'several' }] }) });
    const one = await aggregate(id);
    // A second and third format as the reader would hand them over (no endpoint adds one yet).
    const several: AssetAggregate = {
      ...one,
      formats: [
        one.formats[0],
        { ...one.formats[0], id: '0a0b0c0d-0000-4000-8000-000000000002', raw: tricky[1] },
        { ...one.formats[0], id: '0a0b0c0d-0000-4000-8000-000000000003' },
      ],
    };
    for (const withContent of [true, false]) {
      const wire = assetWire(several, withContent);
      expect(toJson(wire)).toBe(JSON.stringify(wire));
    }
  });
});
