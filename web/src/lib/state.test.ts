import { describe, expect, it } from 'vitest';
import { hashOf, parseState, sanitizeState, serializeState, stateFromHash } from './state';

const ID = '3f75de8e-5786-4a61-918f-6963e5d78ef5';

describe('state', () => {
  it('round-trips through setStateReq / state=', () => {
    const state = { view: 'drive' as const, snippet: ID, query: 'fib', language: 'py', model: 'm' };
    expect(parseState(serializeState(state), 'copilot')).toEqual(state);
  });
  it('keeps only known fields of the right shape', () => {
    expect(
      sanitizeState({ view: 'evil', snippet: 'not-a-uuid', query: 'x'.repeat(2000), extra: 1, tag: 'ok' }, 'copilot'),
    ).toEqual({
      view: 'copilot',
      tag: 'ok',
    });
    expect(parseState('{broken', 'drive')).toBeNull();
    expect(parseState(42, 'drive')).toBeNull();
  });
  it('reads and writes the deep links of the browser app', () => {
    expect(stateFromHash(`#/drive/${ID}`)).toEqual({ view: 'drive', snippet: ID });
    expect(stateFromHash(`#/copilot/${ID.toUpperCase()}`)).toEqual({ view: 'copilot', chat: ID });
    expect(stateFromHash('#/settings')).toEqual({ view: 'settings' });
    expect(stateFromHash('#/drive/javascript:alert(1)')).toBeNull();
    expect(stateFromHash('')).toBeNull();
    expect(hashOf({ view: 'copilot', chat: ID })).toBe(`#/copilot/${ID}`);
    expect(hashOf({ view: 'drive' })).toBe('#/drive');
  });
});
