import { AssetApi, AssetsApi, ConnectorApi, SeededConnectorCreation } from '@pieces.app/pieces-os-client';
import { expectError, http, editText } from './support/http';
import { useTestServer } from './support/server';
import { StreamClient } from './support/ws';
import { expectWire } from './support/wire';

/**
 * Assets saved without a name, a description or tags (the Pieces CLI's `create` and `create -c`
 * send none, nor does a connector's "save" reaction) get them offline, as draft suggests them,
 * marked AUTOMATIC; what the client gives is kept. The generated parts follow the content: after
 * an edit of the text or the language, what the asset still shows as generated is generated
 * again, and what the user changed stays theirs.
 */

/** What the CLI's `create -c` sends (wrapper: BasicAsset.create with the application from /connect). */
const cliCreate = (application: Record<string, unknown>, raw: string) =>
  JSON.stringify({ asset: { application, format: { fragment: { string: { raw } } } }, type: 'SEEDED_ASSET' });

const FIB =
  'def fib(n):\n    """Return the n-th Fibonacci number."""\n    return n if n < 2 else fib(n-1) + fib(n-2)\n';
const FACTORIAL =
  'def factorial(n):\n    """Return n! computed iteratively."""\n    result = 1\n    for k in range(2, n + 1):\n        result *= k\n    return result\n';

interface Tag {
  text: string;
}
interface Annotation {
  id: string;
  type: string;
  text: string;
  mechanism: string;
}

describe('enrichment: names, descriptions and tags for what a client saves without them', () => {
  const server = useTestServer();
  let application: Record<string, unknown>;
  beforeAll(async () => {
    application = (
      await http(
        server.baseUrl,
        'POST',
        '/connect',
        '{"application": {"name": "PIECES_FOR_DEVELOPERS_CLI", "platform": "LINUX", "version": "5.0.0"}}',
      )
    ).json.application;
  });

  const get = async (id: string) => (await http(server.baseUrl, 'GET', `/asset/${id}`)).json;
  const tagsOf = (asset: { tags?: { iterable: Tag[] } }) => (asset.tags?.iterable ?? []).map((t) => t.text);
  const descriptionsOf = (asset: { annotations?: { iterable: Annotation[] } }) =>
    (asset.annotations?.iterable ?? []).filter((a) => a.type === 'DESCRIPTION');
  const search = async (query: string) =>
    (
      await http(server.baseUrl, 'GET', `/assets/search?query=${encodeURIComponent(query)}&transferables=false`)
    ).json.iterable.map((i: { identifier: string }) => i.identifier);
  const createdWith = async (raw: string, metadata?: Record<string, unknown>) => {
    const res = await http(server.baseUrl, 'POST', '/assets/create', {
      type: 'SEEDED_ASSET',
      asset: { format: { fragment: { string: { raw } } }, ...(metadata ? { metadata } : {}) },
    });
    expect(res.status).toBe(200);
    return res.json;
  };
  /** `pieces modify`: the original format read back and written with new content (POST /format/update/value). */
  const modify = async (id: string, raw: string) => {
    expect((await editText(server.baseUrl, id, raw)).status).toBe(200);
  };

  it('create -c: the snippet is named after what it defines, described in one line (AUTOMATIC) and tagged', async () => {
    const res = await http(server.baseUrl, 'POST', '/assets/create?transferables=false', cliCreate(application, FIB));
    expect(res.status).toBe(200);
    expectWire('Asset', res.json);
    expect(res.json.name).toBe('fib: return the n-th Fibonacci number (Python function)');
    const asset = await get(res.json.id);
    expect(asset.name).toBe('fib: return the n-th Fibonacci number (Python function)'); // what `pieces list` shows
    expect(descriptionsOf(asset).map((a) => [a.text, a.mechanism])).toEqual([
      ['Python function `fib`: Return the n-th Fibonacci number.', 'AUTOMATIC'],
    ]);
    expect(tagsOf(asset)).toEqual(['python', 'fib', 'fibonacci', 'number']); // the language, then key terms
    // Searchable by its name, and listed by its language tag.
    expect(await search('fib')).toContain(res.json.id);
    const byTag = await http(server.baseUrl, 'POST', '/search/tag_based', { iterable: [{ text: 'python' }] });
    expect(byTag.json.iterable.map((i: { identifier: string }) => i.identifier)).toContain(res.json.id);
  });

  it('a function without a docstring is named by what its name says it does; its own variables are not tags', async () => {
    const code =
      'def parse_http_response(raw, strict=False):\n    header, _, body = raw.partition("\\r\\n\\r\\n")\n' +
      '    status = int(header.split(" ")[1])\n    result = {"status": status, "body": body}\n    return result\n';
    const created = await createdWith(code);
    expect(created.name).toBe('parse_http_response: parses HTTP response (Python function)');
    expect(descriptionsOf(created).map((a) => a.text)).toEqual([
      'Python function `parse_http_response`: Parses HTTP response.',
    ]);
    const tags = tagsOf(created);
    expect(tags.slice(0, 4)).toEqual(['python', 'parse', 'http', 'response']);
    for (const local of ['raw', 'strict', 'header', 'body', 'result']) expect(tags).not.toContain(local);
    // A verb the data taught (name-verbs.json): `get` leads thousands of Debian functions.
    expect(
      (await createdWith('func getUserByID(db *sql.DB, id int64) (*User, error) {\n\treturn loadUser(db, id)\n}\n'))
        .name,
    ).toBe('getUserByID: gets user by ID (Go function)');
    // A name that does not start with a verb gets no invented purpose.
    expect((await createdWith('def handler_9(event):\n    return event["items"]\n')).name).toBe(
      'handler_9 (Python function)',
    );
  });

  it('a name and description come from the doc comment, never from a comment inside the body or a lint directive', async () => {
    // a comment in the middle of the body says how, not what: the name says what the function does
    const items = await createdWith(
      'def get_items(self, block):\n    items = []\n    for line in block.split("\\n"):\n        # This is a new list item\n        items.append(line)\n    return items\n',
    );
    expect(items.name).toBe('get_items: gets items (Python function)');
    expect(descriptionsOf(items).map((a) => a.text)).toEqual(['Python function `get_items`: Gets items.']);
    const lint = await createdWith(
      'def wcswidth(pwcs, n=None):\n    # pylint: disable=C0103\n    return sum(map(wcwidth, pwcs[:n]))\n',
    );
    expect(lint.name).toBe('wcswidth (Python function)');
    expect(tagsOf(lint)).toEqual(['python', 'wcswidth', 'sum', 'map', 'wcwidth']); // not `pylint`, `c0103`
    // Perl documents a sub with the comment that opens its body; a Go constructor is named by its convention
    expect(
      (
        await createdWith(
          'sub bsin {\n    # calculate sin(x) to N digits\n    my ($class, $x) = @_;\n    return $x;\n}\n',
        )
      ).name,
    ).toBe('bsin: calculate sin(x) to N digits (Perl function)');
    expect(
      (await createdWith('func NewRouter() *Router {\n\treturn &Router{namedRoutes: make(map[string]*Route)}\n}\n'))
        .name,
    ).toBe('NewRouter: creates router (Go function)');
    // a JavaScript class method copied out of its class is named by its definition, not by its first line
    const method = await createdWith(
      'getNumberInput(start, end) {\n  return this.input.slice(start, end).trim();\n}\n',
    );
    expect(method.name).toBe('getNumberInput: gets number input (JavaScript method)');
    // Go's doc comment opens with the name it documents, Javadoc ends in tags: neither is repeated
    const goDoc = await createdWith(
      '// NewRouter returns a new router instance.\nfunc NewRouter() *Router {\n\treturn &Router{}\n}\n',
    );
    expect(goDoc.name).toBe('NewRouter: returns a new router instance (Go function)');
    expect(descriptionsOf(goDoc).map((a) => a.text)).toEqual([
      'Go function `NewRouter`: Returns a new router instance.',
    ]);
    const javadoc = await createdWith(
      '/**\n * Computes the checksum.\n * @param data the bytes\n */\npublic static long checksum(byte[] data) {\n  return 0;\n}\n',
    );
    expect(javadoc.name).toBe('checksum: computes the checksum (Java method)');
    // C#'s XML doc, Rust's sections and Google-style Args: are markup around the summary, not the summary
    const csharp = await createdWith(
      '/// <summary>\n/// Computes the checksum of <paramref name="data"/>.\n/// </summary>\n/// <param name="data">The bytes.</param>\npublic static long Checksum(byte[] data)\n{\n    return 0;\n}\n',
    );
    expect(csharp.name).toBe('Checksum: computes the checksum of data (C# method)');
    for (const markup of ['summary', 'paramref', 'param']) expect(tagsOf(csharp)).not.toContain(markup);
    const rust = await createdWith(
      '/// Returns the sum.\n///\n/// # Examples\n/// ```\n/// assert_eq!(add(1, 2), 3);\n/// ```\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n',
    );
    expect(descriptionsOf(rust).map((a) => a.text)).toEqual(['Rust function `add`: Returns the sum.']);
    const google = await createdWith(
      'def area(w, h):\n    """\n    Args:\n        w: width\n    """\n    return w * h\n',
    );
    expect(google.name).toBe('area (Python function)');
    const pod = await createdWith(
      '=head2 trim\n\nRemoves leading and trailing whitespace.\n\n=cut\n\nsub trim {\n    my ($s) = @_;\n    return $s;\n}\n',
    );
    expect(pod.name).toBe('trim: removes leading and trailing whitespace (Perl function)');
    expect(tagsOf(pod)).not.toContain('head2');
    // a class is named with its doc comment too
    const limiter = await createdWith(
      '/** Limits requests per client. */\nexport class RateLimiter {\n  private hits = new Map<string, number>();\n  allow(client: string): boolean {\n    return (this.hits.get(client) ?? 0) < 10;\n  }\n}\n',
    );
    expect(limiter.name).toBe('RateLimiter: limits requests per client (TypeScript class)');
    expect(descriptionsOf(limiter).map((a) => a.text)).toEqual([
      'TypeScript class `RateLimiter` and method `allow`: Limits requests per client.',
    ]);
    // a script is named and described by its header comment, not by its licence line
    const script = await createdWith(
      '# Copyright (c) 2024 Example Ltd.\n# Back up the database every night.\npg_dump app > /backups/app.sql\n',
    );
    expect(script.name).toBe('Back up the database every night.');
    expect(descriptionsOf(script).map((a) => a.text)).toEqual([
      '3-line Shell snippet: Back up the database every night.',
    ]);
    for (const word of ['copyright', 'example', 'ltd']) expect(tagsOf(script)).not.toContain(word);
  });

  it('parameters of a Java method, an arrow function and a Ruby method are not tags; a type and what the code calls are', async () => {
    const java = tagsOf(
      await createdWith(
        'public int countWords(String sentence, int limit) {\n  return sentence.split(" ").length;\n}\n',
      ),
    );
    expect(java.slice(0, 3)).toEqual(['java', 'count', 'words']);
    expect(java).not.toContain('sentence');
    const arrow = tagsOf(
      await createdWith(
        'const fetchUser = async (userId, options) => {\n  const res = await fetch(`/users/${userId}`, options);\n  return res.json();\n};\n',
      ),
    );
    expect(arrow).toContain('fetch');
    expect(arrow).not.toContain('options');
    const ruby = tagsOf(await createdWith('def render(context)\n  @body.render(context)\nend\n'));
    expect(ruby).toEqual(['ruby', 'render']);
    // Go: the receiver and the parameters are locals, the receiver's type is what the method is about.
    const go = tagsOf(
      await createdWith(
        'func (c *Cache) Evict(key string, reason int) {\n\tdelete(c.entries, key)\n\tc.log(reason)\n}\n',
      ),
    );
    expect(go).toContain('cache');
    expect(go).toContain('evict');
    for (const local of ['key', 'reason']) expect(go).not.toContain(local);
  });

  it("a script is named by its comment's words, not by the comment's marker or a help heading", async () => {
    const ps1 = await createdWith(
      '    .SYNOPSIS\n    Creates a web request object.\n\n    .PARAMETER Uri\n    The URI to request.\n',
    );
    expect(ps1.name).toBe('Creates a web request object.');
    const bat = await createdWith(
      '@REM Builds a .NET solution file, adds the project, builds it\n@REM and executes it.\ndotnet build\n',
    );
    expect(bat.name).toBe('Builds a .NET solution file, adds the project, builds it');
    // a doc comment's tag alone names nothing: the code it annotates does
    const jsdoc = await createdWith(
      '/** @type {<K, V>(thisArg: Map<K, V>, key: K) => void} */\nvar $mapSet = callBound("Map.prototype.set", true);\n',
    );
    expect(jsdoc.name).toBe('var $mapSet = callBound("Map.prototype.set", true);');
  });

  it('commands pasted from a README are a shell snippet, not prose or YAML', async () => {
    const created = await createdWith('npm install --save-dev typescript\nnpx tsc --init\n');
    const asset = await get(created.id);
    expect(asset.original.reference.classification).toEqual({ generic: 'CODE', specific: 'sh' });
    expect(asset.name).toBe('npm install --save-dev typescript');
    // its options (`--save-dev`) are not what it is about
    expect(tagsOf(asset)).toEqual(['shell', 'npm', 'install', 'typescript', 'npx']);
    // a terminal session is named by its command, without the prompt
    const session = await createdWith('$ semver 1.2.4-beta.0 -i prerelease\n1.2.4-beta.1\n');
    expect(session.name).toBe('semver 1.2.4-beta.0 -i prerelease');
    expect((await get(session.id)).original.reference.classification.specific).toBe('sh');
    const toolbox = await createdWith('[user@hostname ~]$ toolbox create\nCreated container: fedora-toolbox-33\n');
    expect(toolbox.name).toBe('toolbox create');
  });

  it('draft suggests exactly what create then generates', async () => {
    const draft = await new AssetsApi(server.sdk).assetsDraft({
      seed: { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: FACTORIAL } } } } } as never,
      transferables: false,
    });
    const created = await createdWith(FACTORIAL);
    expect(draft.asset?.metadata?.name).toBe(created.name);
    expect(draft.asset?.metadata?.name).toBe('factorial: return n! computed iteratively (Python function)');
    expect(draft.asset?.metadata?.annotations?.map((a) => [a.type, a.text])).toEqual(
      descriptionsOf(created).map((a) => [a.type, a.text]),
    );
    expect(draft.asset?.metadata?.tags?.map((t) => t.text)).toEqual(tagsOf(created));
  });

  it('keeps what the client gives and generates only the rest', async () => {
    const named = await createdWith(FIB, { name: 'My fibonacci' });
    expect(named.name).toBe('My fibonacci');
    expect(descriptionsOf(named)).toHaveLength(1);
    expect(tagsOf(named)).toContain('python');

    const tagged = await createdWith(FIB, { tags: [{ text: 'recursion' }] });
    expect(tagged.name).toBe('fib: return the n-th Fibonacci number (Python function)');
    expect(tagsOf(tagged)).toEqual(['recursion']);

    const described = await createdWith(FIB, { annotations: [{ type: 'DESCRIPTION', text: 'The classic.' }] });
    expect(descriptionsOf(described).map((a) => a.text)).toEqual(['The classic.']);

    const complete = await createdWith(FIB, {
      name: 'Fib',
      tags: [{ text: 'math' }],
      annotations: [{ type: 'DESCRIPTION', text: 'Mine.' }],
    });
    expect([complete.name, tagsOf(complete), descriptionsOf(complete).map((a) => a.text)]).toEqual([
      'Fib',
      ['math'],
      ['Mine.'],
    ]);
    expect(await server.sql(`SELECT asset_id FROM asset_enrichments WHERE asset_id = '${complete.id}'`)).toEqual([]);

    // A few words of prose are named but not described: a description would only repeat them.
    const note = await createdWith('plain note');
    expect(note.name).toBe('plain note');
    expect(descriptionsOf(note)).toEqual([]);
  });

  it('a connector that saves a copied snippet gets the same', async () => {
    const connected = await http(server.baseUrl, 'POST', '/connect', {
      application: { name: 'VS_CODE', version: '1.95.0', platform: 'LINUX' },
    });
    const seed = {
      asset: { application: connected.json.application, format: { fragment: { string: { raw: FACTORIAL } } } },
      type: 'SEEDED_ASSET',
    } as unknown as SeededConnectorCreation;
    const id = await new ConnectorApi(server.sdk).react({
      application: connected.json.application.id,
      reaction: { save: true, seed },
    });
    const asset = await get(id);
    expect(asset.name).toBe('factorial: return n! computed iteratively (Python function)');
    expect(tagsOf(asset)).toContain('factorial');
    expect(descriptionsOf(asset)).toHaveLength(1);
  });

  it('modify: the generated name, description and tags follow the new content, announced on the stream', async () => {
    const id = (await http(server.baseUrl, 'POST', '/assets/create?transferables=false', cliCreate(application, FIB)))
      .json.id;
    const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers');
    await stream.next();
    await modify(id, FACTORIAL);
    expect((await stream.next()).iterable[0].asset.id).toBe(id);
    stream.close();
    const asset = await get(id);
    expect(asset.name).toBe('factorial: return n! computed iteratively (Python function)');
    expect(descriptionsOf(asset).map((a) => a.text)).toEqual([
      'Python function `factorial`: Return n! computed iteratively.',
    ]);
    expect(tagsOf(asset)).toEqual(['python', 'factorial', 'computed', 'iteratively']);
    // Nothing of the old content is left to find it by.
    expect(await search('fibonacci')).not.toContain(id);
    expect(await search('factorial')).toContain(id);
  });

  it('what the user changed stays theirs when the content changes; the rest follows', async () => {
    const id = (await http(server.baseUrl, 'POST', '/assets/create?transferables=false', cliCreate(application, FIB)))
      .json.id;
    // `pieces edit -n`: the whole Asset round-tripped with a new name; and a tag of the user's beside the generated ones.
    const asset = await get(id);
    const renamed = await http(
      server.baseUrl,
      'POST',
      '/asset/update?transferables=false',
      JSON.stringify({
        ...asset,
        name: 'Sequences',
        tags: { iterable: [...asset.tags.iterable, { text: 'interview' }] },
      }),
    );
    expect(renamed.status).toBe(200);
    await modify(id, FACTORIAL);
    const after = await get(id);
    expect(after.name).toBe('Sequences');
    expect(tagsOf(after).sort()).toEqual(['computed', 'factorial', 'interview', 'iteratively', 'python']);
    expect(descriptionsOf(after).map((a) => a.text)).toEqual([
      'Python function `factorial`: Return n! computed iteratively.',
    ]);

    // A description the user rewrote stays too.
    const edited = {
      ...after,
      annotations: {
        iterable: after.annotations.iterable.map((a: Annotation) => ({ ...a, text: 'Iterative factorial, my notes.' })),
      },
    };
    expect((await http(server.baseUrl, 'POST', '/asset/update', JSON.stringify(edited))).status).toBe(200);
    await modify(id, FIB);
    const last = await get(id);
    expect(descriptionsOf(last).map((a) => a.text)).toEqual(['Iterative factorial, my notes.']);
    expect(last.name).toBe('Sequences');
    expect(tagsOf(last).sort()).toEqual(['fib', 'fibonacci', 'interview', 'number', 'python']);
  });

  it('reclassify (edit -c): the generated parts follow the new language', async () => {
    const id = (await createdWith(FIB)).id;
    const res = await new AssetApi(server.sdk).assetReclassify({
      assetReclassification: { ext: 'rb' as never, asset: await new AssetApi(server.sdk).assetSnapshot({ asset: id }) },
    });
    expect(res.name).toBe('fib: return the n-th Fibonacci number (Ruby function)');
    expect(res.tags?.iterable.map((t) => t.text).sort()).toEqual(['fib', 'fibonacci', 'number', 'ruby']);
    expect(res.annotations?.iterable.map((a) => a.text)).toEqual([
      'Ruby function `fib`: Return the n-th Fibonacci number.',
    ]);
  });

  it('a rejected create or edit generates nothing', async () => {
    const before = await server.counts(['assets', 'asset_enrichments', 'annotations', 'asset_tags', 'stream_events']);
    expectError(
      await http(server.baseUrl, 'POST', '/assets/create', {
        type: 'SEEDED_ASSET',
        asset: { format: { fragment: { string: { raw: 'x\u0000y' } } } },
      }),
      400,
    );
    expectError(
      await http(
        server.baseUrl,
        'POST',
        '/format/update/value',
        JSON.stringify({ id: '0a0b0c0d-0000-4000-8000-00000000dead', fragment: { string: { raw: FIB } } }),
      ),
      404,
      /not found/,
    );
    expect(await server.counts(['assets', 'asset_enrichments', 'annotations', 'asset_tags', 'stream_events'])).toBe(
      before,
    );
  });
});
