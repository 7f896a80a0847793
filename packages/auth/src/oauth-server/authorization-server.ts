import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type AuthorizationGrant,
  isRegisteredRedirectUri,
  type OAuthAuthorizationStore,
  type OAuthClientRecord,
  type OAuthClientStore,
  type OAuthRefreshStore,
  type PendingAuthorization,
  redirectUriProblem,
  type Scope,
} from '@memsvc/access';
import { type Clock, isMemsvcError } from '@memsvc/core';
import type { SessionClient } from '../session-subject.js';
import type { SessionTokens } from '../session-tokens.js';
import { checkClientMetadata } from './client-metadata.js';
import type { ClientMetadataDocuments } from './client-metadata-documents.js';
import { resolveClient } from './client-resolution.js';
import type { ConsentSigner } from './consent-signer.js';
import { anchoredLoginSigner } from './login-consent.js';
import { OAUTH_LIFETIMES, requestedScopes } from './oauth-policy.js';
import { OAuthRefusal } from './oauth-refusal.js';
import { isS256Challenge, verifierMatches } from './pkce.js';
import { checkRefreshRequest } from './refresh-request.js';
import { issuerOf, mcpResourceOf } from './server-metadata.js';

export type { ConsentSigner } from './consent-signer.js';

export interface AuthorizationServerOptions {
  /** The issuer: OAUTH_REDIRECT_BASE_URL without a trailing slash. */
  readonly issuer: string;
  readonly clients: OAuthClientStore;
  readonly authorizations: OAuthAuthorizationStore;
  readonly refresh: OAuthRefreshStore;
  readonly sessions: SessionTokens;
  readonly clock: Clock;
  /** Client ID Metadata Documents; without it, only registered clients are known. */
  readonly documents?: ClientMetadataDocuments | undefined;
}

/** The tokens of a successful token request (RFC 6749 §5.1). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

/**
 * memsvc's OAuth 2.1 authorization server for MCP clients (MCP 2025-11-25 basic/authorization):
 * authorization code with PKCE S256, RFC 8707 resource indicators, RFC 9207 `iss`, clients by
 * dynamic registration (RFC 7591) or metadata document, and rotating refresh tokens. Access
 * tokens are memsvc session JWTs whose audience is the MCP resource, so logout, the denylist and
 * key revocation end them as they end any session. HTTP is the caller's: this class takes
 * parameters and returns what to answer, or throws OAuthRefusal.
 */
export class AuthorizationServer {
  readonly issuer: string;
  /** The protected resource (RFC 9728): `<issuer>/mcp`, every access token's audience. */
  readonly resource: string;
  readonly #options: AuthorizationServerOptions;

  constructor(options: AuthorizationServerOptions) {
    this.#options = options;
    this.issuer = issuerOf(options.issuer);
    this.resource = mcpResourceOf(options.issuer);
  }

  /** Registers a public client from a registration request's JSON (RFC 7591 §3.1); the response body of §3.2.1. */
  async register(metadata: Record<string, unknown>): Promise<Record<string, unknown>> {
    const checked = checkClientMetadata(metadata);
    const clientId = `mcp_${randomBytes(16).toString('base64url')}`;
    const client = await this.#options.clients.register({ clientId, ...checked });
    return {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(client.clientName === null ? {} : { client_name: client.clientName }),
      ...(client.clientUri === null ? {} : { client_uri: client.clientUri }),
    };
  }

  /** The client with this id: registered here, or described by the document at its URL. invalid_client otherwise. */
  client(clientId: string | null): Promise<OAuthClientRecord> {
    return resolveClient(clientId, this.#options);
  }

  /**
   * Checks an authorization request (OAuth 2.1 §4.1.1) and keeps it for the consent, returning
   * the handle the authorize page carries. Every refusal is shown to the person, never redirected
   * to the client, even once the client and its redirect URI have checked out (RFC 6749 would
   * allow it then): anyone can register a client (dynamic registration, or a metadata document on
   * a host of their own) with a redirect URI of their choosing, so a redirect before the person
   * has consented would make this server an open redirector (RFC 9700 §4.11.2). Only `decide`,
   * after the person has seen the client and where the answer goes, sends the browser there.
   */
  async authorize(params: URLSearchParams): Promise<{ handle: string; client: OAuthClientRecord; request: PendingAuthorization }> {
    for (const name of [
      'client_id',
      'redirect_uri',
      'response_type',
      'code_challenge',
      'code_challenge_method',
      'scope',
      'resource',
      'state',
    ]) {
      if (params.getAll(name).length > 1) throw new OAuthRefusal('invalid_request', `${name} is given more than once`);
    }
    const client = await this.client(params.get('client_id'));
    const redirectUri = params.get('redirect_uri');
    if (!redirectUri) throw new OAuthRefusal('invalid_request', 'redirect_uri is required');
    const problem = redirectUriProblem(redirectUri);
    if (problem) throw new OAuthRefusal('invalid_request', `redirect_uri: ${problem}`);
    if (!isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
      throw new OAuthRefusal('invalid_request', 'redirect_uri is not registered for this client (compared exactly)');
    }
    if (params.get('response_type') !== 'code') throw new OAuthRefusal('unsupported_response_type', 'response_type must be code');
    const challenge = params.get('code_challenge');
    if (!challenge) throw new OAuthRefusal('invalid_request', 'code_challenge is required (PKCE)');
    if (params.get('code_challenge_method') !== 'S256') throw new OAuthRefusal('invalid_request', 'code_challenge_method must be S256');
    if (!isS256Challenge(challenge)) throw new OAuthRefusal('invalid_request', 'code_challenge must be 43 base64url characters');
    const scopes = requestedScopes(params.get('scope'));
    const resource = params.get('resource') ?? this.resource;
    if (resource !== this.resource) throw new OAuthRefusal('invalid_target', `resource must be ${this.resource}`);
    const state = params.get('state');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
    if (state !== null && (state.length > 1024 || /[\u0000-\u001f\u007f]/.test(state)))
      throw new OAuthRefusal('invalid_request', 'state is too long or has control characters');
    const request: PendingAuthorization = { clientId: client.clientId, redirectUri, codeChallenge: challenge, resource, scopes, state };
    const handle = newSecret();
    const expiresAt = new Date(this.#options.clock.now().getTime() + OAUTH_LIFETIMES.pending * 1000);
    await this.#options.authorizations.savePending(hashOf(handle), request, expiresAt);
    return { handle, client, request };
  }

  /** The request waiting under a handle, unless unknown, decided or expired. */
  async pending(handle: string): Promise<PendingAuthorization | undefined> {
    return this.#options.authorizations.findPending(hashOf(handle), this.#options.clock.now());
  }

  /**
   * Ends a pending request with the person's decision and returns where to send the browser:
   * the client's redirect URI with a code (approved: the scopes asked for that the signer holds)
   * or `access_denied`, and `iss` either way (RFC 9207). Undefined when the handle is unknown,
   * already decided or expired: nothing is redirected then.
   */
  async decide(handle: string, signer: ConsentSigner | 'denied'): Promise<string | undefined> {
    const request = await this.#options.authorizations.consumePending(hashOf(handle), this.#options.clock.now());
    if (!request) return undefined;
    const granted = signer === 'denied' ? [] : request.scopes.filter((scope) => signer.scopes.includes(scope));
    if (signer === 'denied' || granted.length === 0) {
      const reason = signer === 'denied' ? 'the person denied the request' : 'the signer holds none of the scopes asked for';
      return this.redirectWithError(request.redirectUri, new OAuthRefusal('access_denied', reason), request.state);
    }
    // A consent-page sign-in ends with this decision: the grant hangs on a session of its own.
    const giver = signer.origin === 'api-key' ? signer : await anchoredLoginSigner(this.#options.sessions, signer);
    const code = newSecret();
    const grant = {
      ...signerGrant(giver, request.clientId, request.resource, granted),
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
    };
    await this.#options.authorizations.saveCode(
      hashOf(code),
      grant,
      new Date(this.#options.clock.now().getTime() + OAUTH_LIFETIMES.code * 1000),
    );
    const url = new URL(request.redirectUri);
    url.searchParams.set('code', code);
    if (request.state !== null) url.searchParams.set('state', request.state);
    url.searchParams.set('iss', this.issuer);
    return url.href;
  }

  /** A redirect URI carrying an error (RFC 6749 §4.1.2.1) and `iss` (RFC 9207). */
  redirectWithError(redirectUri: string, refusal: OAuthRefusal, state: string | null): string {
    const url = new URL(redirectUri);
    url.searchParams.set('error', refusal.code);
    url.searchParams.set('error_description', refusal.message);
    if (state !== null) url.searchParams.set('state', state);
    url.searchParams.set('iss', this.issuer);
    return url.href;
  }

  /** The token endpoint (OAuth 2.1 §3.2): `authorization_code` and `refresh_token` grants, public clients. */
  async token(form: URLSearchParams, client: SessionClient): Promise<TokenResponse> {
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return this.#exchangeCode(form, client);
    if (grantType === 'refresh_token') return this.#refresh(form, client);
    throw new OAuthRefusal(
      grantType ? 'unsupported_grant_type' : 'invalid_request',
      'grant_type must be authorization_code or refresh_token',
    );
  }

  async #exchangeCode(form: URLSearchParams, client: SessionClient): Promise<TokenResponse> {
    const code = form.get('code');
    if (!code) throw new OAuthRefusal('invalid_request', 'code is required');
    // Consumed before anything else is checked: a code presented with a wrong verifier is spent.
    // Its refresh family starts in the same transaction, so a replay racing this exchange always
    // finds the family and revokes it, and the access token below is issued only while it lives.
    const familyId = randomUUID();
    const refreshToken = newSecret();
    const now = this.#options.clock.now();
    const family = {
      id: familyId,
      tokenHash: hashOf(refreshToken),
      expiresAt: new Date(now.getTime() + OAUTH_LIFETIMES.refreshFamily * 1000),
    };
    const redemption = await this.#options.authorizations.consumeCode(hashOf(code), family, now);
    if (redemption.kind === 'reused') {
      // The store revoked what the first use obtained (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3).
      throw new OAuthRefusal('invalid_grant', 'the code was already used; the tokens issued for it are revoked');
    }
    if (redemption.kind === 'unknown') throw new OAuthRefusal('invalid_grant', 'the code is unknown, used or expired');
    const { grant } = redemption;
    // Every refusal from here on ends the family the code started: no one holds its token yet.
    const refuse = async (refusal: OAuthRefusal) => {
      await this.#options.refresh.revokeFamily(familyId, now);
      return refusal;
    };
    if (form.get('client_id') !== grant.clientId)
      throw await refuse(new OAuthRefusal('invalid_grant', 'the code was issued to another client'));
    if (form.get('redirect_uri') !== grant.redirectUri)
      throw await refuse(new OAuthRefusal('invalid_grant', 'redirect_uri differs from the authorization request'));
    if (!verifierMatches(form.get('code_verifier'), grant.codeChallenge))
      throw await refuse(new OAuthRefusal('invalid_grant', 'code_verifier does not match the code_challenge'));
    const resource = form.get('resource');
    if (resource !== null && resource !== grant.resource)
      throw await refuse(new OAuthRefusal('invalid_target', 'resource differs from the one authorized'));
    if (grant.signInJti !== null && (await this.#options.sessions.isEnded(grant.signInJti))) {
      throw await refuse(new OAuthRefusal('invalid_grant', 'the sign-in that consented has ended'));
    }
    const access = await this.#issue(grant, familyId, client).catch(async (error: unknown) => {
      throw error instanceof OAuthRefusal ? await refuse(error) : error;
    });
    return { ...access, refresh_token: refreshToken };
  }

  async #refresh(form: URLSearchParams, client: SessionClient): Promise<TokenResponse> {
    const presented = form.get('refresh_token');
    if (!presented) throw new OAuthRefusal('invalid_request', 'refresh_token is required');
    const asked = form.get('scope');
    const askedScopes = asked === null ? undefined : requestedScopes(asked);
    const now = this.#options.clock.now();
    // The request is checked against the grant before the token is used (issue 51, 8d): a
    // refusable request (a wider scope, another resource) leaves the token to be retried, where
    // rotating first would make the retry look like a replay and end the grant.
    const live = await this.#options.refresh.peek(hashOf(presented), now);
    if (live) await checkRefreshRequest(form, live, askedScopes, this.#options, now);
    const next = newSecret();
    const outcome = await this.#options.refresh.rotate(hashOf(presented), hashOf(next), now);
    if (outcome.kind !== 'rotated')
      throw new OAuthRefusal('invalid_grant', 'the refresh token is unknown, expired, revoked or already used');
    const { grant, familyId } = outcome;
    // The grant is the one peeked (it never changes); checked again for what may have ended since.
    const scopes = await checkRefreshRequest(form, outcome, askedScopes, this.#options, now);
    const access = await this.#issue({ ...grant, scopes }, familyId, client).catch(async (error: unknown) => {
      if (error instanceof OAuthRefusal) await this.#options.refresh.revokeFamily(familyId, now);
      throw error;
    });
    return { ...access, refresh_token: next };
  }

  async #issue(grant: AuthorizationGrant, familyId: string, client: SessionClient): Promise<Omit<TokenResponse, 'refresh_token'>> {
    try {
      const session = await this.#options.sessions.issue(
        {
          userId: grant.userId,
          organizationId: grant.organizationId,
          scopes: grant.scopes,
          origin: grant.origin,
          keyId: grant.apiKeyId ?? undefined,
          notAfter: grant.notAfter,
          oauth: { clientId: grant.clientId, audience: grant.resource, familyId, lifetimeSeconds: OAUTH_LIFETIMES.accessToken },
        },
        client,
      );
      const expiresIn = Math.max(0, Math.round((session.expiresAt.getTime() - this.#options.clock.now().getTime()) / 1000));
      return { access_token: session.token, token_type: 'Bearer', expires_in: expiresIn, scope: grant.scopes.join(' ') };
    } catch (error) {
      // The family was revoked since (a code or refresh token of it was used twice): nothing is issued.
      if (isMemsvcError(error, 'UNAUTHENTICATED') && error.data.field === 'oauthFamilyId')
        throw new OAuthRefusal('invalid_grant', 'the grant was revoked: a code or refresh token of it was used twice');
      // The API key used to consent was revoked or expired since: the grant is over.
      if (isMemsvcError(error, 'UNAUTHENTICATED'))
        throw new OAuthRefusal('invalid_grant', 'the credential that consented is no longer valid');
      throw error;
    }
  }
}

function signerGrant(signer: ConsentSigner, clientId: string, resource: string, scopes: readonly Scope[]): AuthorizationGrant {
  return {
    clientId,
    resource,
    scopes,
    userId: signer.userId,
    organizationId: signer.organizationId,
    origin: signer.origin,
    apiKeyId: signer.apiKeyId,
    notAfter: signer.notAfter,
    signInJti: signer.signInJti,
  };
}
