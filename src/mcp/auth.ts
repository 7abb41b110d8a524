import { readFileSync } from 'node:fs';
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
} from '@modelcontextprotocol/server';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
} from 'jose';

/*
 * The OAuth 2.1 resource-server side of MCP authorization (spec 2025-11-25): bearer JWTs verified
 * against the authorization server's JWKS, with the issuer and this server's resource URL as the
 * audience (RFC 8707), and the answers the spec asks for — 401 with a `WWW-Authenticate` naming the
 * protected-resource metadata (RFC 9728) for a missing or bad token, 403 `insufficient_scope` naming
 * the scopes to ask for. The SDK's `bearerAuthChallengeResponse` writes those answers and
 * `getOAuthProtectedResourceMetadataUrl` names the metadata; toolsmith verifies the JWTs (the SDK
 * takes a verifier but has none), and writes its own answer only where the SDK has none: the 401
 * to a request without a token and the 503 while the keys cannot be fetched. Scopes become persona
 * capabilities through one configured table, and the token's subject becomes the caller:
 * capabilities come from who calls, not from a server flag.
 */

/** How bearer tokens are checked and what their scopes grant. */
export interface BearerAuthOptions {
  /** The authorization server's issuer identifier; a token's `iss` must equal it. */
  issuer: string;
  /**
   * This server's resource URL (the MCP endpoint clients use, e.g. `https://tools.example.com/mcp`);
   * a token's `aud` must contain it, so a token minted for another service is refused.
   */
  resource: string;
  /** The authorization server's keys: an `http(s)://` JWKS URL, or the path of a JWKS JSON file. */
  jwks: string;
  /** Scope → the persona capabilities it grants. A scope not in the table grants nothing. */
  scopeCapabilities?: ReadonlyMap<string, readonly string[]> | Readonly<Record<string, readonly string[]>>;
  /** Scopes every request needs (default none); a token without one of them is answered 403. */
  requiredScopes?: readonly string[];
  /** Authorization servers named in the resource metadata (default `[issuer]`). */
  authorizationServers?: readonly string[];
  /** Accepted signature algorithms (default: those of the keys, as jose decides). */
  algorithms?: readonly string[];
  /** Clock skew tolerated on `exp`/`nbf`, in seconds (default 5). */
  clockToleranceSeconds?: number;
}

/** Who a verified token says is calling, and what it may do. */
export interface AuthenticatedCaller {
  /** The token's `sub`: the call's user. */
  subject: string;
  /** The token's scopes (`scope`, space-separated, or `scp`). */
  scopes: string[];
  /** The capabilities the scopes grant through the table, sorted, each once. */
  capabilities: string[];
  /** The token's `client_id` or `azp`, when present. */
  clientId?: string;
  /** Every claim of the token. */
  claims: JWTPayload;
}

/**
 * The outcome of checking one request's `Authorization` header: the caller, or the HTTP answer
 * refusing it (401, 403 or 503, with its `WWW-Authenticate` challenge and an OAuth error body).
 */
export type AuthOutcome = { ok: true; caller: AuthenticatedCaller } | { ok: false; refusal: Response };

/** A configured resource server: verifies tokens and describes itself (RFC 9728). */
export interface BearerAuth {
  /** Checks an `Authorization` header value (or its absence). */
  authenticate(header: string | undefined): Promise<AuthOutcome>;
  /** The RFC 9728 protected-resource metadata document. */
  metadata(): Record<string, unknown>;
  /** The scopes that grant at least one of `capabilities` (to ask for in a 403), sorted. */
  scopesGranting(capabilities: readonly string[]): string[];
  /** The 403 `insufficient_scope` answer asking for `scopes`. */
  insufficientScope(scopes: readonly string[], description: string): Response;
}

/** The path of the protected-resource metadata of `resource` (RFC 9728 §3.1: inserted before the resource's path). */
export function resourceMetadataPath(resource: string): string {
  return new URL(getOAuthProtectedResourceMetadataUrl(new URL(resource))).pathname;
}

/** An OAuth scope token (RFC 6749 §3.3): printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The scope → capabilities table: what a token's scopes grant, and which scopes grant a capability. */
export class ScopeTable {
  private readonly table: ReadonlyMap<string, readonly string[]>;

  constructor(scopeCapabilities: BearerAuthOptions['scopeCapabilities'] = {}) {
    this.table = new Map(scopeCapabilities instanceof Map ? scopeCapabilities : Object.entries(scopeCapabilities));
  }

  /** The scopes the table names. */
  scopes(): string[] {
    return [...this.table.keys()];
  }

  /** The capabilities `scopes` grant, sorted, each once; a scope not in the table grants nothing. */
  capabilitiesFor(scopes: readonly string[]): string[] {
    const granted = new Set<string>();
    for (const scope of scopes) for (const capability of this.table.get(scope) ?? []) granted.add(capability);
    return [...granted].sort();
  }

  /** The scopes that grant at least one of `capabilities`, sorted. */
  scopesGranting(capabilities: readonly string[]): string[] {
    const scopes: string[] = [];
    for (const [scope, granted] of this.table)
      if (granted.some((capability) => capabilities.includes(capability))) scopes.push(scope);
    return scopes.sort();
  }
}

/**
 * What a verified token's claims make of the request: the caller (subject, scopes, the capabilities
 * they grant, client), or why it is refused — no subject, or scopes it lacks of `requiredScopes`.
 */
export function callerFromClaims(
  payload: JWTPayload,
  requiredScopes: readonly string[],
  table: ScopeTable,
): { caller: AuthenticatedCaller } | { refused: 'no-subject' } | { refused: 'missing-scopes'; missing: string[] } {
  if (typeof payload.sub !== 'string' || payload.sub === '') return { refused: 'no-subject' };
  const scopes = scopesOf(payload);
  const missing = requiredScopes.filter((scope) => !scopes.includes(scope));
  if (missing.length > 0) return { refused: 'missing-scopes', missing };
  const caller: AuthenticatedCaller = {
    subject: payload.sub,
    scopes,
    capabilities: table.capabilitiesFor(scopes),
    claims: payload,
  };
  const clientId = [payload.client_id, payload.azp].find((value) => typeof value === 'string');
  if (clientId !== undefined) caller.clientId = clientId as string;
  return { caller };
}

/**
 * A resource server checking bearer JWTs as `options` says. Throws (a setup mistake) when the
 * issuer or resource is not an absolute URL or the JWKS file cannot be read.
 */
export function createBearerAuth(options: BearerAuthOptions): BearerAuth {
  for (const name of ['issuer', 'resource'] as const)
    if (!URL.canParse(options[name]))
      throw new TypeError(
        `auth ${name} '${options[name]}' is not an absolute URL; give e.g. https://auth.example.com/.`,
      );
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(options.resource));
  const keys = loadKeySet(options.jwks);
  const table = new ScopeTable(options.scopeCapabilities);
  const requiredScopes = [...(options.requiredScopes ?? [])];
  for (const scope of requiredScopes)
    if (!SCOPE_TOKEN.test(scope))
      throw new TypeError(
        `auth requiredScopes: '${scope}' is not an OAuth scope (printable ASCII without spaces, quotes or backslashes).`,
      );
  const verifyOptions: JWTVerifyOptions = {
    issuer: options.issuer,
    audience: options.resource,
    clockTolerance: options.clockToleranceSeconds ?? 5,
    ...(options.algorithms === undefined ? {} : { algorithms: [...options.algorithms] }),
  };
  /** The SDK's challenge (401 `invalid_token`, 403 `insufficient_scope`) naming `scopes` and the metadata. */
  const challenge = (code: OAuthErrorCode, description: string, scopes: readonly string[]) =>
    bearerAuthChallengeResponse(new OAuthError(code, description), {
      requiredScopes: [...scopes],
      resourceMetadataUrl: metadataUrl,
    });
  const refuse = (description: string): AuthOutcome => ({
    ok: false,
    refusal: challenge(OAuthErrorCode.InvalidToken, description, requiredScopes),
  });
  const insufficientScope = (scopes: readonly string[], description: string) =>
    challenge(OAuthErrorCode.InsufficientScope, description, scopes);

  return {
    async authenticate(header) {
      if (header === undefined || header === '')
        return { ok: false, refusal: askForToken(metadataUrl, requiredScopes) };
      const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
      if (match === null) return refuse('The Authorization header must be "Bearer <token>".');
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(match[1]!, keys, verifyOptions));
      } catch (error) {
        if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
          // The SDK answers a verifier's failure 500; keys that cannot be fetched are a passing fault,
          // so this is 503, which a load balancer and a client retry.
          const description = `The authorization server's keys could not be fetched: ${(error as Error).message}`;
          const refusal = Response.json(
            { error: 'temporarily_unavailable', error_description: description },
            { status: 503 },
          );
          return { ok: false, refusal };
        }
        return refuse(describeTokenError(error));
      }
      const outcome = callerFromClaims(payload, requiredScopes, table);
      if ('caller' in outcome) return { ok: true, caller: outcome.caller };
      if (outcome.refused === 'no-subject') return refuse('The token has no subject (sub).');
      const { missing } = outcome;
      const description = `The token lacks the scope${missing.length === 1 ? '' : 's'} ${missing.join(', ')}.`;
      return { ok: false, refusal: insufficientScope(requiredScopes, description) };
    },
    // Not the SDK's buildOAuthProtectedResourceMetadata: it names one authorization server and needs
    // that server's RFC 8414 document, where this server knows issuers only and may name several.
    metadata: () => ({
      resource: options.resource,
      authorization_servers: [...(options.authorizationServers ?? [options.issuer])],
      scopes_supported: [...new Set([...requiredScopes, ...table.scopes()])].sort(),
      bearer_methods_supported: ['header'],
    }),
    scopesGranting: (capabilities) => table.scopesGranting(capabilities),
    insufficientScope,
  };
}

/**
 * The 401 to a request without a token: a challenge naming the metadata and the required scopes,
 * and no error code, as RFC 6750 §3.1 asks (MCP's authorization spec shows the same). The SDK's
 * `bearerAuthChallengeResponse` always names an error, so this challenge is written here; its
 * values cannot break the quoted-strings (a URL, and scopes checked at setup).
 */
function askForToken(metadataUrl: string, requiredScopes: readonly string[]): Response {
  const scope = requiredScopes.length === 0 ? '' : `, scope="${requiredScopes.join(' ')}"`;
  return Response.json(
    { error: 'unauthorized', error_description: 'This server needs a bearer token (Authorization: Bearer <token>).' },
    { status: 401, headers: { 'WWW-Authenticate': `Bearer resource_metadata="${metadataUrl}"${scope}` } },
  );
}

function loadKeySet(jwks: string): JWTVerifyGetKey {
  if (/^https?:\/\//i.test(jwks)) return createRemoteJWKSet(new URL(jwks));
  let set: JSONWebKeySet;
  try {
    set = JSON.parse(readFileSync(jwks, 'utf8')) as JSONWebKeySet;
  } catch (error) {
    throw new TypeError(
      `auth jwks '${jwks}' could not be read as a JWKS file (${(error as Error).message}); give an https:// URL or the path of a JSON file { "keys": [...] }.`,
    );
  }
  if (!Array.isArray(set?.keys))
    throw new TypeError(`auth jwks '${jwks}' has no "keys" array; a JWKS file is { "keys": [...] }.`);
  return createLocalJWKSet(set);
}

/** The scopes of a token: `scope` (RFC 9068, space-separated) or `scp` (a list or a string). */
function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return raw.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(raw)) return raw.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

function describeTokenError(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'The token is not meant for this server (aud).';
    if (error.claim === 'iss') return 'The token comes from another issuer (iss).';
    return `The token's "${error.claim}" claim is not valid: ${error.message}.`;
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The token signature does not verify.';
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return "No key of the authorization server's JWKS matches the token.";
  return `The token is not valid: ${(error as Error).message}.`;
}
