import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
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
  for (const [name, value] of [
    ['issuer', options.issuer],
    ['resource', options.resource],
  ] as const) {
    if (!URL.canParse(value))
      throw new TypeError(`auth ${name} '${value}' is not an absolute URL; give e.g. https://auth.example.com/.`);
  }
  const resource = options.resource;
  const metadataUrl = resourceMetadataUrl(resource);
  const keys = loadKeySet(options.jwks);
  const table = new Map<string, readonly string[]>(
    options.scopeCapabilities instanceof Map
      ? options.scopeCapabilities
      : Object.entries(options.scopeCapabilities ?? {}),
  );
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const verifyOptions = {
    issuer: options.issuer,
    audience: resource,
    clockTolerance: options.clockToleranceSeconds ?? 5,
    ...(options.algorithms === undefined ? {} : { algorithms: [...options.algorithms] }),
  };
  const challenge = (fields: Array<[string, string]>) =>
    [
      'Bearer',
      [['resource_metadata', metadataUrl], ...fields].map(([key, value]) => `${key}="${quote(value)}"`).join(', '),
    ].join(' ');
  const unauthorized = (error: string | undefined, description: string): AuthRefusal => ({
    status: 401,
    wwwAuthenticate: challenge([
      ...(requiredScopes.length > 0 ? ([['scope', requiredScopes.join(' ')]] as Array<[string, string]>) : []),
      ...(error === undefined
        ? []
        : ([
            ['error', error],
            ['error_description', description],
          ] as Array<[string, string]>)),
    ]),
    error: error ?? 'unauthorized',
    description,
  });
  const capabilitiesFor = (scopes: readonly string[]) => {
    const granted = new Set<string>();
    for (const scope of scopes) for (const capability of table.get(scope) ?? []) granted.add(capability);
    return [...granted].sort();
  };
  const insufficientScope = (scopes: readonly string[], description: string): AuthRefusal => ({
    status: 403,
    wwwAuthenticate: challenge([
      ['error', 'insufficient_scope'],
      ['scope', scopes.join(' ')],
      ['error_description', description],
    ]),
    error: 'insufficient_scope',
    description,
  });

  return {
    async authenticate(header) {
      if (header === undefined || header === '')
        return {
          ok: false,
          refusal: unauthorized(undefined, 'This server needs a bearer token (Authorization: Bearer <token>).'),
        };
      const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
      if (match === null)
        return {
          ok: false,
          refusal: unauthorized('invalid_request', 'The Authorization header must be "Bearer <token>".'),
        };
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(match[1]!, keys, verifyOptions));
      } catch (error) {
        if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
          return {
            ok: false,
            refusal: {
              status: 503,
              error: 'temporarily_unavailable',
              description: `The authorization server's keys could not be fetched: ${(error as Error).message}`,
            },
          };
        }
        return { ok: false, refusal: unauthorized('invalid_token', describeTokenError(error)) };
      }
      if (typeof payload.sub !== 'string' || payload.sub === '')
        return { ok: false, refusal: unauthorized('invalid_token', 'The token has no subject (sub).') };
      const scopes = scopesOf(payload);
      const missing = requiredScopes.filter((scope) => !scopes.includes(scope));
      if (missing.length > 0)
        return {
          ok: false,
          refusal: insufficientScope(
            requiredScopes,
            `The token lacks the scope${missing.length === 1 ? '' : 's'} ${missing.join(', ')}.`,
          ),
        };
      const clientId =
        typeof payload.client_id === 'string'
          ? payload.client_id
          : typeof payload.azp === 'string'
            ? payload.azp
            : undefined;
      const caller: AuthenticatedCaller = {
        subject: payload.sub,
        scopes,
        capabilities: capabilitiesFor(scopes),
        claims: payload,
      };
      if (clientId !== undefined) caller.clientId = clientId;
      return { ok: true, caller };
    },
    metadata() {
      const scopes = new Set<string>([...requiredScopes, ...table.keys()]);
      return {
        resource,
        authorization_servers: [...(options.authorizationServers ?? [options.issuer])],
        scopes_supported: [...scopes].sort(),
        bearer_methods_supported: ['header'],
      };
    },
    capabilitiesFor,
    scopesGranting(capabilities) {
      const scopes: string[] = [];
      for (const [scope, granted] of table)
        if (granted.some((capability) => capabilities.includes(capability))) scopes.push(scope);
      return scopes.sort();
    },
    insufficientScope,
  };
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
