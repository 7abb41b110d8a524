import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { requestStates } from '../../src/mcp/request-state.js';

const KEY_A = 'a'.repeat(32);
const KEY_B = new Uint8Array(32).fill(7);
/** The codecs bind no state to a request, so `verify` never reads its context. */
const NO_CONTEXT = {} as ServerContext;

describe('requestStates: the signing of a 2026-07-28 question', () => {
  it('shares one codec among servers with the same key, and signs with each server its own', async () => {
    const first = requestStates(KEY_A, undefined);
    expect(requestStates(KEY_A, undefined).codec).toBe(first.codec);
    const state = await first.codec.mint({ n: 'nonce', c: 'call', q: ['approve'], a: {} });
    // A server with another key, made in between, neither reuses that codec nor takes its state.
    const other = requestStates(KEY_B, undefined);
    expect(other.codec).not.toBe(first.codec);
    await expect(other.codec.verify(state, NO_CONTEXT)).rejects.toThrow('mac');
    expect(await requestStates(KEY_A, undefined).codec.verify(state, NO_CONTEXT)).toEqual({
      n: 'nonce',
      c: 'call',
      q: ['approve'],
      a: {},
    });
  });
});
