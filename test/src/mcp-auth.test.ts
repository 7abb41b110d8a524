import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerChallenge, callerFromClaims, createBearerAuth, ScopeTable } from '../../src/mcp/auth.js';

/*
 * The resource-server side of MCP authorization piece by piece: the scope table, the challenge
 * header, claims → caller, and `createBearerAuth` over real jose-signed tokens and a JWKS file.
 */

const ISSUER = 'https://auth.example.com/';
const RESOURCE = 'https://tools.example.com/mcp';
const METADATA = 'https://tools.example.com/.well-known/oauth-protected-resource/mcp';

describe('ScopeTable', () => {
  const table = new ScopeTable({ 'tools:read': ['read'], 'tools:write': ['read', 'write'], admin: ['admin'] });

  it('grants the union of the capabilities of known scopes, sorted, each once; unknown scopes grant nothing', () => {
    expect(table.capabilitiesFor(['tools:write', 'tools:read', 'unknown'])).toEqual(['read', 'write']);
    expect(table.capabilitiesFor([])).toEqual([]);
  });

  it('names the scopes that grant any of the capabilities asked for, sorted', () => {
    expect(table.scopesGranting(['write', 'admin'])).toEqual(['admin', 'tools:write']);
    expect(table.scopesGranting(['nothing'])).toEqual([]);
  });

  it('takes a Map as well as a record', () => {
    expect(new ScopeTable(new Map([['s', ['c']]])).capabilitiesFor(['s'])).toEqual(['c']);
    expect(new ScopeTable().scopes()).toEqual([]);
  });
});

describe('bearerChallenge', () => {
  it('names the resource metadata first and quotes every value without quotes, backslashes or control characters', () => {
    expect(
      bearerChallenge(METADATA, [
        ['error', 'invalid_token'],
        ['error_description', 'bad "token"\\\n end'],
      ]),
    ).toBe(`Bearer resource_metadata="${METADATA}", error="invalid_token", error_description="bad token  end"`);
  });
});

describe('callerFromClaims', () => {
  const table = new ScopeTable({ 'tools:write': ['write'] });

  it('makes the caller from sub, scope (or scp) and client_id (else azp)', () => {
    const claims: JWTPayload = { sub: 'ada', scope: 'tools:write  other', azp: 'cli' };
    expect(callerFromClaims(claims, [], table)).toEqual({
      caller: { subject: 'ada', scopes: ['tools:write', 'other'], capabilities: ['write'], clientId: 'cli', claims },
    });
    const scp = callerFromClaims({ sub: 'bo', scp: ['tools:write', 7], client_id: 'app', azp: 'x' }, [], table);
    expect(scp).toMatchObject({ caller: { scopes: ['tools:write'], clientId: 'app' } });
  });

  it('refuses a token with no subject, and names the required scopes it lacks', () => {
    expect(callerFromClaims({ sub: '' }, [], table)).toEqual({ refused: 'no-subject' });
    expect(callerFromClaims({ sub: 'ada', scope: 'a' }, ['a', 'b', 'c'], table)).toEqual({
      refused: 'missing-scopes',
      missing: ['b', 'c'],
    });
  });
});

describe('createBearerAuth over a JWKS file', () => {
  let dir: string;
  let jwks: string;
  let key: CryptoKey;
  let otherKey: CryptoKey;
  const sign = (claims: JWTPayload, options: { key?: CryptoKey; audience?: string; expires?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(options.audience ?? RESOURCE)
      .setIssuedAt()
      .setExpirationTime(options.expires ?? '5m')
      .sign(options.key ?? key);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'toolsmith-auth-'));
    const pair = await generateKeyPair('ES256');
    key = pair.privateKey;
    otherKey = (await generateKeyPair('ES256')).privateKey;
    jwks = path.join(dir, 'jwks.json');
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    writeFileSync(jwks, JSON.stringify({ keys: [publicJwk] }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const auth = () =>
    createBearerAuth({
      issuer: ISSUER,
      resource: RESOURCE,
      jwks,
      scopeCapabilities: { 'tools:write': ['write'] },
      requiredScopes: ['tools:use'],
    });

  it('refuses a setup mistake at once, naming the option', () => {
    expect(() => createBearerAuth({ issuer: 'auth', resource: RESOURCE, jwks })).toThrow(/auth issuer 'auth'/);
    expect(() => createBearerAuth({ issuer: ISSUER, resource: RESOURCE, jwks: path.join(dir, 'none.json') })).toThrow(
      /could not be read as a JWKS file/,
    );
    writeFileSync(path.join(dir, 'empty.json'), '{}');
    expect(() => createBearerAuth({ issuer: ISSUER, resource: RESOURCE, jwks: path.join(dir, 'empty.json') })).toThrow(
      /has no "keys" array/,
    );
  });

  it('answers a valid token with the caller and its capabilities', async () => {
    const token = await sign({ sub: 'ada', scope: 'tools:use tools:write', client_id: 'cli' });
    expect(await auth().authenticate(`Bearer ${token}`)).toMatchObject({
      ok: true,
      caller: { subject: 'ada', scopes: ['tools:use', 'tools:write'], capabilities: ['write'], clientId: 'cli' },
    });
  });

  it('401 with a challenge naming the metadata and the required scope, the error only for a bad header or token', async () => {
    const missing = await auth().authenticate(undefined);
    expect(missing).toEqual({
      ok: false,
      refusal: {
        status: 401,
        wwwAuthenticate: `Bearer resource_metadata="${METADATA}", scope="tools:use"`,
        error: 'unauthorized',
        description: 'This server needs a bearer token (Authorization: Bearer <token>).',
      },
    });
    expect(await auth().authenticate('Basic abc')).toMatchObject({
      refusal: {
        status: 401,
        error: 'invalid_request',
        wwwAuthenticate: expect.stringContaining('error="invalid_request"'),
      },
    });
    const cases: Array<[Promise<string>, RegExp]> = [
      [sign({ sub: 'ada', scope: 'tools:use' }, { expires: '-1m' }), /expired/],
      [
        sign({ sub: 'ada', scope: 'tools:use' }, { audience: 'https://other.example.com/' }),
        /not meant for this server/,
      ],
      [sign({ sub: 'ada', scope: 'tools:use' }, { key: otherKey }), /signature does not verify/],
      [sign({ scope: 'tools:use' }), /no subject/],
    ];
    for (const [token, description] of cases)
      expect(await auth().authenticate(`Bearer ${await token}`)).toMatchObject({
        ok: false,
        refusal: { status: 401, error: 'invalid_token', description: expect.stringMatching(description) },
      });
  });

  it('403 insufficient_scope naming the required scopes when the token lacks one', async () => {
    const outcome = await auth().authenticate(`Bearer ${await sign({ sub: 'ada', scope: 'tools:write' })}`);
    expect(outcome).toEqual({
      ok: false,
      refusal: {
        status: 403,
        wwwAuthenticate: `Bearer resource_metadata="${METADATA}", error="insufficient_scope", scope="tools:use", error_description="The token lacks the scope tools:use."`,
        error: 'insufficient_scope',
        description: 'The token lacks the scope tools:use.',
      },
    });
  });

  it('describes itself (RFC 9728): resource, authorization servers, every scope it knows', () => {
    expect(auth().metadata()).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      scopes_supported: ['tools:use', 'tools:write'],
      bearer_methods_supported: ['header'],
    });
  });
});
