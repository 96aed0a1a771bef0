import { whyNotOffered } from '../../src/common/http/not-offered';
import { SdkOperationIndex, notImplementedBody, unservedAnswer } from '../../src/common/http/unserved-operations';
import { SDK_OPERATIONS, SdkOperation } from '../../src/common/wire/sdk-operations';

/**
 * How a request no route takes is matched to an operation of the official SDK (the JSON 501),
 * and the reasons the 501s give. Every operation is walked against a real server in
 * test/e2e/sdk-operations.spec.ts.
 */
const op = (method: 'GET' | 'POST', path: string, operationId = `${method} ${path}`): SdkOperation => ({
  operationId,
  method,
  path,
  api: 'TestApi',
});

describe('SdkOperationIndex', () => {
  const index = new SdkOperationIndex([
    op('GET', '/assets/{asset}', 'byId'),
    op('GET', '/assets/identifiers', 'identifiers'),
    op('POST', '/tag/{tag}/persons/associate/{person}', 'tagPerson'),
    op('POST', '/{application}/track', 'track'),
    op('POST', '/tags/{tag}/delete', 'deleteTag'),
  ]);
  const id = (method: string, path: string) => index.match(method, path)?.operationId ?? null;

  it('prefers a literal segment to a parameter, as the router prefers static routes', () => {
    expect(id('GET', '/assets/identifiers')).toBe('identifiers');
    expect(id('GET', '/assets/0a0b')).toBe('byId');
  });

  it('matches parameters of any value, on the method of the operation (HEAD as GET)', () => {
    expect(id('POST', '/tag/t1/persons/associate/p1')).toBe('tagPerson');
    expect(id('POST', '/anything/track')).toBe('track');
    expect(id('HEAD', '/assets/identifiers')).toBe('identifiers');
    expect(id('GET', '/tag/t1/persons/associate/p1')).toBeNull();
    expect(id('PUT', '/assets/identifiers')).toBeNull();
  });

  it('ignores a trailing slash (as the routes do) but never matches an empty parameter or another length', () => {
    expect(id('GET', '/assets/identifiers/')).toBe('identifiers');
    expect(id('POST', '/tags//delete')).toBeNull();
    expect(id('GET', '/assets')).toBeNull();
    expect(id('GET', '/assets/a/b')).toBeNull();
  });

  it('indexes the whole SDK: each of its 586 operations is found by its own template', () => {
    const all = new SdkOperationIndex();
    expect(SDK_OPERATIONS).toHaveLength(586);
    for (const operation of SDK_OPERATIONS) {
      const concrete = operation.path.replace(/\{[^}]+\}/g, '0a0b0c0d-0000-4000-8000-00000000dead');
      const found = all.match(operation.method, concrete)!;
      // A concrete path may stand for a more literal operation only when the template has a parameter there.
      if (found.operationId !== operation.operationId) expect(operation.path).toMatch(/\{/);
      expect(found.method).toBe(operation.method);
    }
  });
});

describe('unservedAnswer', () => {
  const index = new SdkOperationIndex([op('GET', '/backups', 'backupsSnapshot')]);

  it('is a 501 for an SDK operation, a 405 with Allow for a path served under other methods, else a 404', () => {
    expect(unservedAnswer(index, 'GET', '/backups', () => false).body.statusCode).toBe(501);
    const wrong = unservedAnswer(index, 'POST', '/assets', (m) => m === 'GET' || m === 'HEAD');
    expect(wrong).toEqual({
      body: {
        statusCode: 405,
        error: 'Method Not Allowed',
        message: 'POST is not a method of /assets: it answers GET, HEAD',
      },
      allow: 'GET, HEAD',
    });
    expect(unservedAnswer(index, 'GET', '/nothing', () => false)).toEqual({
      body: { statusCode: 404, error: 'Not Found', message: 'Cannot GET /nothing: no such route' },
    });
  });

  it("names the operation, its route and its API class, and gives the operation's reason", () => {
    const backups = SDK_OPERATIONS.find((o) => o.operationId === 'backupsSnapshot')!;
    expect(notImplementedBody(backups)).toEqual({
      statusCode: 501,
      error: 'Not Implemented',
      message: `backupsSnapshot (GET /backups, BackupsApi in the Pieces SDK) is not offered by Trove: ${whyNotOffered(backups)}.`,
    });
  });
});

describe('whyNotOffered', () => {
  it('gives each reason as one sentence (no trailing period, no line break) that says something', () => {
    for (const operation of SDK_OPERATIONS) {
      const reason = whyNotOffered(operation);
      if (reason === undefined) continue;
      expect({
        op: operation.operationId,
        ok: reason.length > 30 && !/[.\n]$/.test(reason) && !reason.includes('\n'),
      }).toEqual({
        op: operation.operationId,
        ok: true,
      });
    }
  });

  it('says which links Trove keeps for an association it does not keep, and the kind for whole API classes', () => {
    expect(
      whyNotOffered({
        operationId: 'tagAssociatePerson',
        path: '/tag/{tag}/persons/associate/{person}',
        api: 'TagApi',
      }),
    ).toMatch(/^Trove keeps no link between tags and persons: Trove links assets to tags/);
    expect(whyNotOffered({ operationId: 'allocationsSnapshot', path: '/allocations', api: 'AllocationsApi' })).toMatch(
      /Pieces cloud/,
    );
    expect(whyNotOffered({ operationId: 'ollamaInstall', path: '/ollama/install', api: 'OllamaApi' })).toMatch(
      /installs none/,
    );
    expect(
      whyNotOffered({ operationId: 'tagScoresIncrement', path: '/tag/{tag}/scores/increment', api: 'TagApi' }),
    ).toBe('Trove keeps usage scores for assets and conversations only');
  });
});
