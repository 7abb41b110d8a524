import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFromClaims, createBearerAuth, type AuthOutcome, ScopeTable } from '../../src/mcp/auth.js';

/*
 * The resource-server side of MCP authorization piece by piece: the scope table, claims → caller,
 * and `createBearerAuth` over real jose-signed tokens and a JWKS file, its refusals as the HTTP
 * answers they are (status, challenge, OAuth error body).
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

/** A refusal as plain data: its status, challenge and body. */
async function refusalOf(outcome: AuthOutcome) {
  if (outcome.ok) throw new Error(`expected a refusal, got the caller ${outcome.caller.subject}`);
  const { refusal } = outcome;
  return {
    status: refusal.status,
    wwwAuthenticate: refusal.headers.get('www-authenticate') ?? undefined,
    body: (await refusal.json()) as { error: string; error_description: string },
  };
}

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
    expect(() => createBearerAuth({ issuer: ISSUER, resource: '/mcp', jwks })).toThrow(
      /auth resource '\/mcp' is not an absolute URL/,
    );
    expect(() => createBearerAuth({ issuer: ISSUER, resource: RESOURCE, jwks: path.join(dir, 'none.json') })).toThrow(
      /could not be read as a JWKS file/,
    );
    writeFileSync(path.join(dir, 'empty.json'), '{}');
    expect(() => createBearerAuth({ issuer: ISSUER, resource: RESOURCE, jwks: path.join(dir, 'empty.json') })).toThrow(
      /has no "keys" array/,
    );
    // A required scope is written into the challenge as it is: one that is no OAuth scope is refused.
    expect(() => createBearerAuth({ issuer: ISSUER, resource: RESOURCE, jwks, requiredScopes: ['a"b'] })).toThrow(
      /auth requiredScopes: 'a"b' is not an OAuth scope/,
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
    expect(await refusalOf(await auth().authenticate(undefined))).toEqual({
      status: 401,
      wwwAuthenticate: `Bearer resource_metadata="${METADATA}", scope="tools:use"`,
      body: {
        error: 'unauthorized',
        error_description: 'This server needs a bearer token (Authorization: Bearer <token>).',
      },
    });
    expect(await refusalOf(await auth().authenticate('Basic abc'))).toEqual({
      status: 401,
      wwwAuthenticate: `Bearer error="invalid_token", error_description="The Authorization header must be \\"Bearer <token>\\".", scope="tools:use", resource_metadata="${METADATA}"`,
      body: { error: 'invalid_token', error_description: 'The Authorization header must be "Bearer <token>".' },
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
      expect(await refusalOf(await auth().authenticate(`Bearer ${await token}`))).toMatchObject({
        status: 401,
        wwwAuthenticate: expect.stringMatching(
          /^Bearer error="invalid_token", error_description="[^"]+", scope="tools:use"/,
        ),
        body: { error: 'invalid_token', error_description: expect.stringMatching(description) },
      });
  });

  it('403 insufficient_scope naming the required scopes when the token lacks one', async () => {
    const outcome = await auth().authenticate(`Bearer ${await sign({ sub: 'ada', scope: 'tools:write' })}`);
    expect(await refusalOf(outcome)).toEqual({
      status: 403,
      wwwAuthenticate: `Bearer error="insufficient_scope", error_description="The token lacks the scope tools:use.", scope="tools:use", resource_metadata="${METADATA}"`,
      body: { error: 'insufficient_scope', error_description: 'The token lacks the scope tools:use.' },
    });
  });

  it('asks for more scopes (step-up) in a challenge that quotes the description safely', async () => {
    const refusal = auth().insufficientScope(['tools:use', 'tools:write'], 'Tool "x" needs\nwrite.');
    expect(await refusalOf({ ok: false, refusal })).toEqual({
      status: 403,
      wwwAuthenticate: `Bearer error="insufficient_scope", error_description="Tool \\"x\\" needs write.", scope="tools:use tools:write", resource_metadata="${METADATA}"`,
      body: { error: 'insufficient_scope', error_description: 'Tool "x" needs\nwrite.' },
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
