import * as oauth from 'oauth4webapi';

/** How long one request to a provider may take before the login fails (a hung provider must not hold a request). */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** The transport options every provider client takes. */
export interface ProviderTransport {
  /** Replaces the global fetch (tests, proxies). */
  readonly fetch?: typeof fetch | undefined;
  /** Allows http:// endpoints; only for loopback fakes in tests, never in production. */
  readonly allowInsecureRequests?: boolean | undefined;
}

/** The oauth4webapi options of one provider request (each oauth4webapi call takes a subset). */
export interface ProviderRequestOptions {
  signal: () => AbortSignal;
  headers?: Record<string, string>;
  [oauth.customFetch]?: typeof fetch;
  [oauth.allowInsecureRequests]?: boolean;
}

/** oauth4webapi request options: our fetch, a fresh timeout per request, and plain http only when allowed. */
export function requestOptions(transport: ProviderTransport, headers?: Record<string, string>): ProviderRequestOptions {
  const options: ProviderRequestOptions = { signal: () => AbortSignal.timeout(PROVIDER_TIMEOUT_MS) };
  if (headers) options.headers = headers;
  if (transport.fetch) options[oauth.customFetch] = transport.fetch;
  // oauth4webapi marks the option deprecated so that using it stands out; here it is only ever
  // set for the loopback fakes, which cannot serve TLS.
  if (transport.allowInsecureRequests) options[oauth.allowInsecureRequests] = true;
  return options;
}

/**
 * The callback parameters oauth4webapi's code grant accepts: it takes only parameters that went
 * through validateAuthResponse. LoginFlow has already matched the state (by its hash), so the
 * state check is skipped here; and since every provider has its own callback URL (the mix-up
 * defence of RFC 9700 §4.4.2), an `iss` response parameter is not required either.
 */
export function codeParameters(as: oauth.AuthorizationServer, client: oauth.Client, code: string): URLSearchParams {
  const withoutIssParameter: oauth.AuthorizationServer = { ...as, authorization_response_iss_parameter_supported: false };
  return oauth.validateAuthResponse(withoutIssParameter, client, new URLSearchParams({ code }), oauth.skipStateCheck);
}
