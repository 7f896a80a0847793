import type { IdentityProvider, VerifiedIdentity } from '@memsvc/access';

/** What a provider client needs to send the browser to the provider's consent page. */
export interface AuthorizationRequest {
  /** The OAuth `state`, echoed back on the callback; LoginFlow keeps only its hash. */
  readonly state: string;
  /** The PKCE S256 challenge of the verifier LoginFlow stored with the state. */
  readonly codeChallenge: string;
  /** The OIDC `nonce`; providers without ID tokens ignore it. */
  readonly nonce: string;
  /** The callback URL, exactly as it will be sent again at the token exchange. */
  readonly redirectUri: string;
}

/** What a provider client needs to turn a callback's code into an identity. */
export interface CodeExchange {
  readonly code: string;
  /** The PKCE verifier stored with the state; the provider checks it against the challenge. */
  readonly codeVerifier: string;
  /** The nonce sent with the authorization request, expected back in an ID token. */
  readonly nonce: string;
  readonly redirectUri: string;
}

/**
 * One identity provider as LoginFlow sees it (spec §5.5): where to send the browser, and how to
 * learn who came back. Implementations speak the provider's wire format; LoginFlow owns the state.
 */
export interface OAuthProviderClient {
  readonly provider: IdentityProvider;
  /** The provider's authorization URL for this login (PKCE S256, state, nonce for OIDC). */
  authorizationUrl(login: AuthorizationRequest): Promise<URL>;
  /** Exchanges the code and returns the identity the provider vouches for, or throws LoginRefused. */
  identify(exchange: CodeExchange): Promise<VerifiedIdentity>;
}
