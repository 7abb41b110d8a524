import { readFileSync } from 'node:fs';
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
 * the scopes to ask for. Scopes become persona capabilities through one configured table, and the
 * token's subject becomes the caller: capabilities come from who calls, not from a server flag.
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

/** A refusal to answer: the HTTP status, the `WWW-Authenticate` value and a message for the body. */
export interface AuthRefusal {
  status: 401 | 403 | 503;
  wwwAuthenticate?: string;
  error: string;
  description: string;
}

/** The outcome of checking one request's `Authorization` header. */
export type AuthOutcome = { ok: true; caller: AuthenticatedCaller } | { ok: false; refusal: AuthRefusal };

/** A configured resource server: verifies tokens and describes itself (RFC 9728). */
export interface BearerAuth {
  /** Checks an `Authorization` header value (or its absence). */
  authenticate(header: string | undefined): Promise<AuthOutcome>;
  /** The RFC 9728 protected-resource metadata document. */
  metadata(): Record<string, unknown>;
  /** The capabilities `scopes` grant through the table, sorted, each once. */
  capabilitiesFor(scopes: readonly string[]): string[];
  /** The scopes that grant at least one of `capabilities` (to ask for in a 403), sorted. */
  scopesGranting(capabilities: readonly string[]): string[];
  /** A 403 `insufficient_scope` refusal asking for `scopes`. */
  insufficientScope(scopes: readonly string[], description: string): AuthRefusal;
}

/** The path of the protected-resource metadata of `resource` (RFC 9728 §3.1: inserted before the resource's path). */
export function resourceMetadataPath(resource: string): string {
  const pathname = new URL(resource).pathname.replace(/\/+$/, '');
  return `/.well-known/oauth-protected-resource${pathname}`;
}

/** The absolute URL of the protected-resource metadata of `resource`. */
export function resourceMetadataUrl(resource: string): string {
  return new URL(resourceMetadataPath(resource), resource).href;
}

/**
 * A resource server checking bearer JWTs as `options` says. Throws (a setup mistake) when the
 * issuer or resource is not an absolute URL or the JWKS file cannot be read.
 */
export function createBearerAuth(options: BearerAuthOptions): BearerAuth {
  return new JwtBearerAuth(options);
}

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
 * A `WWW-Authenticate: Bearer` value naming the protected-resource metadata first, then `fields`
 * (each value quoted, with what a quoted-string cannot hold taken out).
 */
export function bearerChallenge(metadataUrl: string, fields: ReadonlyArray<readonly [string, string]>): string {
  const params = [['resource_metadata', metadataUrl] as const, ...fields].map(
    ([key, value]) => `${key}="${quote(value)}"`,
  );
  return `Bearer ${params.join(', ')}`;
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

/** `BearerAuth` over JWTs verified with jose against the configured keys, issuer and resource. */
class JwtBearerAuth implements BearerAuth {
  private readonly metadataUrl: string;
  private readonly keys: JWTVerifyGetKey;
  private readonly table: ScopeTable;
  private readonly requiredScopes: readonly string[];
  private readonly verifyOptions: JWTVerifyOptions;

  constructor(private readonly options: BearerAuthOptions) {
    for (const [name, value] of [
      ['issuer', options.issuer],
      ['resource', options.resource],
    ] as const) {
      if (!URL.canParse(value))
        throw new TypeError(`auth ${name} '${value}' is not an absolute URL; give e.g. https://auth.example.com/.`);
    }
    this.metadataUrl = resourceMetadataUrl(options.resource);
    this.keys = loadKeySet(options.jwks);
    this.table = new ScopeTable(options.scopeCapabilities);
    this.requiredScopes = [...(options.requiredScopes ?? [])];
    this.verifyOptions = {
      issuer: options.issuer,
      audience: options.resource,
      clockTolerance: options.clockToleranceSeconds ?? 5,
      ...(options.algorithms === undefined ? {} : { algorithms: [...options.algorithms] }),
    };
  }

  async authenticate(header: string | undefined): Promise<AuthOutcome> {
    if (header === undefined || header === '')
      return this.refuse(undefined, 'This server needs a bearer token (Authorization: Bearer <token>).');
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
    if (match === null) return this.refuse('invalid_request', 'The Authorization header must be "Bearer <token>".');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1]!, this.keys, this.verifyOptions));
    } catch (error) {
      if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
        const description = `The authorization server's keys could not be fetched: ${(error as Error).message}`;
        return { ok: false, refusal: { status: 503, error: 'temporarily_unavailable', description } };
      }
      return this.refuse('invalid_token', describeTokenError(error));
    }
    const outcome = callerFromClaims(payload, this.requiredScopes, this.table);
    if ('caller' in outcome) return { ok: true, caller: outcome.caller };
    if (outcome.refused === 'no-subject') return this.refuse('invalid_token', 'The token has no subject (sub).');
    const { missing } = outcome;
    const description = `The token lacks the scope${missing.length === 1 ? '' : 's'} ${missing.join(', ')}.`;
    return { ok: false, refusal: this.insufficientScope(this.requiredScopes, description) };
  }

  metadata(): Record<string, unknown> {
    const scopes = new Set<string>([...this.requiredScopes, ...this.table.scopes()]);
    return {
      resource: this.options.resource,
      authorization_servers: [...(this.options.authorizationServers ?? [this.options.issuer])],
      scopes_supported: [...scopes].sort(),
      bearer_methods_supported: ['header'],
    };
  }

  capabilitiesFor(scopes: readonly string[]): string[] {
    return this.table.capabilitiesFor(scopes);
  }

  scopesGranting(capabilities: readonly string[]): string[] {
    return this.table.scopesGranting(capabilities);
  }

  insufficientScope(scopes: readonly string[], description: string): AuthRefusal {
    const wwwAuthenticate = bearerChallenge(this.metadataUrl, [
      ['error', 'insufficient_scope'],
      ['scope', scopes.join(' ')],
      ['error_description', description],
    ]);
    return { status: 403, wwwAuthenticate, error: 'insufficient_scope', description };
  }

  /** A 401: the challenge names the required scopes and, for a bad token or header, the error. */
  private refuse(error: string | undefined, description: string): AuthOutcome {
    const fields: Array<[string, string]> = [];
    if (this.requiredScopes.length > 0) fields.push(['scope', this.requiredScopes.join(' ')]);
    if (error !== undefined) fields.push(['error', error], ['error_description', description]);
    const wwwAuthenticate = bearerChallenge(this.metadataUrl, fields);
    return { ok: false, refusal: { status: 401, wwwAuthenticate, error: error ?? 'unauthorized', description } };
  }
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

/** A value inside a quoted-string of an HTTP header: no quotes, backslashes or control characters. */
function quote(value: string): string {
  return value.replace(/[\\"]/g, '').replace(/[\u0000-\u001f\u007f]/g, ' ');
}
