import { randomUUID } from 'node:crypto';
import { isScope, type Scope, type Secret, type SessionOrigin, type SessionStore } from '@memsvc/access';
import { type Clock, isValidTenantId, type TenantId, toTenantId } from '@memsvc/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { IssuedSession, SessionClient, SessionPurpose, SessionSubject } from './session-subject.js';

/** The `iss` of every session token, and the only one accepted. */
export const SESSION_ISSUER = 'memsvc';
/** The `aud` of every session token: what it is good for (MCP calls and the session endpoints). */
export const SESSION_AUDIENCE = 'memsvc-api';
/** The `aud` of a sign-in made on the OAuth consent page: only that page takes it. */
export const CONSENT_SIGN_IN_AUDIENCE = 'memsvc-oauth-consent';
/** The `aud` of the session a login consent is anchored on: no verifier takes it. */
const CONSENT_GRANT_AUDIENCE = 'memsvc-oauth-grant';
/** The longest a consent-page sign-in lives: the ten minutes an authorization request waits. */
export const CONSENT_SIGN_IN_SECONDS = 600;
/** The one algorithm signed and accepted; `none` and every other `alg` are refused. */
const ALGORITHM = 'HS256';

/** Verified tokens remembered per process: a few hundred bytes each. */
const VERIFIED_TOKENS_KEPT = 4096;

const ORIGINS: readonly SessionOrigin[] = ['api-key', 'github', 'google'];

/**
 * What a session JWT is for, told by its audience: a memsvc session (`aud` SESSION_AUDIENCE: the
 * dashboard, the session endpoints, /mcp), an OAuth access token (`aud` the MCP resource, with
 * its `client_id`: /mcp only) or a consent-page sign-in (`aud` CONSENT_SIGN_IN_AUDIENCE: the
 * consent decision only). Each verifier names the kinds it accepts, so a token made for one
 * place is refused in another: an access token a client holds does not open the dashboard.
 */
export type SessionTokenKind = 'session' | 'access-token' | 'consent-sign-in';

/** A verified, unrevoked session token's claims. */
export interface SessionClaims {
  readonly userId: TenantId;
  readonly organizationId: string | null;
  readonly scopes: readonly Scope[];
  readonly origin: SessionOrigin;
  /** The API key the session was exchanged for, when it was. */
  readonly keyId: string | null;
  readonly jti: string;
  /** When the session was signed in (`iat`): how fresh the sign-in is, for changes that ask for a recent one. */
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  /** The token's audience: SESSION_AUDIENCE, or the MCP resource for an OAuth access token. */
  readonly audience: string;
  /** The OAuth client an access token was issued to (`client_id`), or null for any other session. */
  readonly clientId: string | null;
  /** What the token is for, by its audience. */
  readonly kind: SessionTokenKind;
}

export interface SessionTokensOptions {
  /** JWT_SECRET (at least 32 characters, checked when the configuration loads). */
  readonly secret: Secret;
  /** JWT_EXPIRES_IN, in seconds. */
  readonly expiresInSeconds: number;
  readonly sessions: SessionStore;
  readonly clock: Clock;
  /**
   * The MCP resource of this server (`<OAUTH_REDIRECT_BASE_URL>/mcp`), accepted as an audience
   * besides SESSION_AUDIENCE: the `aud` of OAuth access tokens. Unset, only SESSION_AUDIENCE is.
   */
  readonly resourceAudience?: string | undefined;
}

/** The three base64url segments of a compact JWS: told apart from an API key without a read. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a bearer token has the shape of a JWT (not whether it is a valid one). */
export function looksLikeJwt(token: string): boolean {
  return token.length <= 8192 && COMPACT_JWS.test(token);
}

/**
 * Session JWTs (spec §5.3): HS256 over JWT_SECRET, living JWT_EXPIRES_IN, naming the user
 * (`sub`), organization (`org`), scopes (`scope`, space-separated as in RFC 8693), how the session
 * began (`via`), the API key it was exchanged for (`key`: an id, not a secret) and a `jti`.
 * Verification checks the signature with HS256 alone, the issuer, the
 * audience and the expiry by our clock, then asks the store whether the `jti` was denied since —
 * the one thing a signature cannot tell, and what makes logout take effect on every replica.
 */
export class SessionTokens {
  readonly #options: SessionTokensOptions;
  readonly #key: Uint8Array;
  /**
   * Tokens whose signature and claims this process has verified, by their exact text: checking
   * an HMAC through WebCrypto costs about 0.1 ms, a third of a warm call's authentication budget,
   * and an agent presents the same token on every call. Only the signature is remembered — expiry
   * and the denylist are checked on every call — and the map is bounded (oldest out first).
   */
  readonly #verified = new Map<string, SessionClaims>();

  readonly #audiences: string[];

  constructor(options: SessionTokensOptions) {
    this.#options = options;
    this.#audiences = [SESSION_AUDIENCE, CONSENT_SIGN_IN_AUDIENCE, ...(options.resourceAudience ? [options.resourceAudience] : [])];
    this.#key = new TextEncoder().encode(options.secret.reveal());
  }

  /** Signs a session for a subject and records it (so a user's sessions can be listed and revoked). */
  async issue(subject: SessionSubject, client: SessionClient = {}): Promise<IssuedSession> {
    const now = this.#options.clock.now();
    const issuedAt = Math.floor(now.getTime() / 1000);
    const purposeLifetime = subject.purpose === 'consent-sign-in' ? CONSENT_SIGN_IN_SECONDS : Number.POSITIVE_INFINITY;
    const lifetime = Math.min(this.#options.expiresInSeconds, subject.oauth?.lifetimeSeconds ?? purposeLifetime);
    const lifetimeEnds = (issuedAt + lifetime) * 1000;
    // Whole seconds, as the token's `exp` says it: the record and the token end together.
    const ends = subject.notAfter ? Math.min(lifetimeEnds, subject.notAfter.getTime()) : lifetimeEnds;
    const expiresAt = new Date(Math.floor(ends / 1000) * 1000);
    const jti = randomUUID();
    await this.#options.sessions.create({
      userId: subject.userId,
      jti,
      expiresAt,
      userAgent: client.userAgent,
      ipAddress: client.ipAddress,
      apiKeyId: subject.keyId,
      oauthFamilyId: subject.oauth?.familyId,
    });
    const token = await new SignJWT({
      scope: subject.scopes.join(' '),
      via: subject.origin,
      ...(subject.organizationId === null ? {} : { org: subject.organizationId }),
      ...(subject.keyId === undefined ? {} : { key: subject.keyId }),
      ...(subject.oauth === undefined ? {} : { client_id: subject.oauth.clientId }),
    })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(subject.userId)
      .setIssuer(SESSION_ISSUER)
      .setAudience(subject.oauth?.audience ?? audienceOf(subject.purpose))
      .setJti(jti)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.#key);
    return {
      token,
      jti,
      tokenType: 'Bearer',
      expiresAt,
      userId: subject.userId,
      organizationId: subject.organizationId,
      scopes: subject.scopes,
    };
  }

  /**
   * The claims of a token that is a valid, unexpired, unrevoked session of this server of one of
   * the `accepted` kinds (a memsvc session unless told otherwise), or undefined for anything else —
   * a bad signature, another algorithm, another issuer or audience, another kind, an expired or
   * denied token, malformed claims. Why is not told: it would only help someone forging tokens.
   */
  async verify(token: string, accepted: readonly SessionTokenKind[] = ['session']): Promise<SessionClaims | undefined> {
    const claims = await this.#verifySignature(token);
    if (!claims || !accepted.includes(claims.kind)) return undefined;
    return (await this.#options.sessions.isDenied(claims.jti, this.#options.clock.now())) ? undefined : claims;
  }

  /**
   * Logs a session out: its `jti` goes on the denylist until the token would have expired. The
   * claims of the session ended, or undefined when the token is not a valid session of the
   * `accepted` kinds (already denied included).
   */
  async revoke(token: string, accepted: readonly SessionTokenKind[] = ['session']): Promise<SessionClaims | undefined> {
    const claims = await this.verify(token, accepted);
    if (!claims) return undefined;
    await this.#options.sessions.deny(claims.jti, claims.expiresAt, this.#options.clock.now());
    return claims;
  }

  /** Whether the session with this `jti` was ended (logout, every session ended, an account blocked): it is on the denylist. */
  async isEnded(jti: string): Promise<boolean> {
    return this.#options.sessions.isDenied(jti, this.#options.clock.now());
  }

  async #verifySignature(token: string): Promise<SessionClaims | undefined> {
    const known = this.#verified.get(token);
    if (known) {
      if (known.expiresAt.getTime() > this.#options.clock.now().getTime()) return known;
      this.#verified.delete(token);
      return undefined;
    }
    const claims = await this.#checkSignature(token);
    if (claims) {
      if (this.#verified.size >= VERIFIED_TOKENS_KEPT) this.#verified.delete(this.#verified.keys().next().value as string);
      this.#verified.set(token, claims);
    }
    return claims;
  }

  #kindOf(audience: string): SessionTokenKind | undefined {
    if (audience === SESSION_AUDIENCE) return 'session';
    if (audience === CONSENT_SIGN_IN_AUDIENCE) return 'consent-sign-in';
    if (this.#options.resourceAudience !== undefined && audience === this.#options.resourceAudience) return 'access-token';
    return undefined;
  }

  async #checkSignature(token: string): Promise<SessionClaims | undefined> {
    if (!looksLikeJwt(token)) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: [ALGORITHM],
        issuer: SESSION_ISSUER,
        audience: this.#audiences,
        currentDate: this.#options.clock.now(),
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
      });
      const { sub, jti, exp, iat, scope, org, via, key, aud, client_id: clientId } = payload;
      if (typeof sub !== 'string' || !isValidTenantId(sub) || typeof jti !== 'string' || typeof exp !== 'number') return undefined;
      if (typeof iat !== 'number') return undefined;
      if (typeof scope !== 'string' || !ORIGINS.includes(via as SessionOrigin)) return undefined;
      if ((org !== undefined && typeof org !== 'string') || (key !== undefined && typeof key !== 'string')) return undefined;
      if (typeof aud !== 'string' || (clientId !== undefined && typeof clientId !== 'string')) return undefined;
      // An access token is for the resource and names its client; no other kind names one.
      const kind = this.#kindOf(aud);
      if (kind === undefined || (kind === 'access-token') !== (clientId !== undefined)) return undefined;
      return {
        userId: toTenantId(sub),
        organizationId: org ?? null,
        // A scope this version does not know grants nothing.
        scopes: scope.split(' ').filter(isScope),
        origin: via as SessionOrigin,
        keyId: key ?? null,
        jti,
        issuedAt: new Date(iat * 1000),
        expiresAt: new Date(exp * 1000),
        audience: aud,
        clientId: clientId ?? null,
        kind,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  }
}

function audienceOf(purpose: SessionPurpose | undefined): string {
  if (purpose === 'consent-sign-in') return CONSENT_SIGN_IN_AUDIENCE;
  if (purpose === 'consent-grant') return CONSENT_GRANT_AUDIENCE;
  return SESSION_AUDIENCE;
}
