import type { Secret, VerifiedIdentity } from '@memsvc/access';
import type { Clock } from '@memsvc/core';
import { jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { LoginRefused } from './login-refused.js';
import { codeParameters, type ProviderTransport, requestOptions } from './oauth-requests.js';
import { oidcDiscovery } from './oidc-discovery.js';
import type { OAuthProviderClient } from './provider-client.js';
import { providerFailure } from './provider-failure.js';

/** Google's OpenID Connect issuer. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';

/** Options of googleClient: the OAuth client's credentials, the issuer to discover, and our clock. */
export interface GoogleClientOptions extends ProviderTransport {
  readonly clientId: string;
  readonly clientSecret: Secret;
  /** The OpenID issuer; Google's unless a test points it at a fake. */
  readonly issuer?: string | undefined;
  /** Whose "now" the ID token's exp and iat are checked against. */
  readonly clock: Clock;
}

// An id and a verified email in the ID token; `profile` adds the name.
const SCOPE = 'openid email profile';

/**
 * Google login (spec §5.5): OpenID Connect authorization code flow with PKCE and a nonce. The
 * identity is the ID token, verified here with Google's published keys (RS256 only) for issuer,
 * audience, lifetime by our clock, and the nonce of this login.
 */
export function googleClient(options: GoogleClientOptions): OAuthProviderClient {
  const discover = oidcDiscovery(options.issuer ?? GOOGLE_ISSUER, options);

  // oauth4webapi checks the ID token's exp and iat against the wall clock; clockSkew is how it
  // lets a caller move that instant, so it is set to where our Clock stands.
  function client(): oauth.Client {
    const skewSeconds = Math.round((options.clock.now().getTime() - Date.now()) / 1000);
    return { client_id: options.clientId, id_token_signed_response_alg: 'RS256', [oauth.clockSkew]: skewSeconds };
  }

  async function verifyIdToken(idToken: string, nonce: string): Promise<VerifiedIdentity> {
    const { as, keys } = await discover();
    const { payload } = await jwtVerify(idToken, keys, {
      algorithms: ['RS256'],
      issuer: as.issuer,
      audience: options.clientId,
      currentDate: options.clock.now(),
      requiredClaims: ['sub', 'iat', 'exp'],
    });
    if (payload.nonce !== nonce) throw new LoginRefused('provider-error', 'id_token: the nonce is not this login’s');
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new LoginRefused('provider-error', 'id_token: no subject');
    if (typeof payload.email !== 'string' || payload.email_verified !== true) {
      throw new LoginRefused('email-unverified', 'id_token: no verified email address');
    }
    const name = typeof payload.name === 'string' && payload.name.trim() !== '' ? payload.name : undefined;
    return { provider: 'google', providerUserId: payload.sub, email: payload.email.toLowerCase(), displayName: name };
  }

  return {
    provider: 'google',

    async authorizationUrl(login) {
      let endpoint: string;
      try {
        endpoint = (await discover()).as.authorization_endpoint;
      } catch (error) {
        throw providerFailure('discovery', error);
      }
      const url = new URL(endpoint);
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('redirect_uri', login.redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', SCOPE);
      url.searchParams.set('state', login.state);
      url.searchParams.set('nonce', login.nonce);
      url.searchParams.set('code_challenge', login.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      return url;
    },

    async identify(exchange) {
      let idToken: string;
      try {
        const { as } = await discover();
        const metadata = client();
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          metadata,
          oauth.ClientSecretPost(options.clientSecret.reveal()),
          codeParameters(as, metadata, exchange.code),
          exchange.redirectUri,
          exchange.codeVerifier,
          requestOptions(options),
        );
        // Checks the token response and the ID token's claims (iss, aud, exp, iat, nonce), but
        // not its signature: that is jose's job below, against the discovered keys.
        const tokens = await oauth.processAuthorizationCodeResponse(as, metadata, response, {
          expectedNonce: exchange.nonce,
          requireIdToken: true,
        });
        if (typeof tokens.id_token !== 'string') throw new LoginRefused('provider-error', 'token exchange: no id_token');
        idToken = tokens.id_token;
      } catch (error) {
        throw providerFailure('token exchange', error);
      }
      try {
        return await verifyIdToken(idToken, exchange.nonce);
      } catch (error) {
        throw providerFailure('id_token', error);
      }
    },
  };
}
