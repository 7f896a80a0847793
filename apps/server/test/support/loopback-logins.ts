import { Secret } from '@memsvc/access';
import { githubClient, googleClient, type OAuthProviderClient } from '@memsvc/auth';
import type { FakeGitHub, FakeGoogle } from '@memsvc/auth/testing';

/** An OAuth app's registration at a provider: what the server's environment names. */
export interface LoopbackApp {
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * The server's GitHub and Google clients pointed at the loopback providers (plain HTTP allowed):
 * the real login code, talking to servers that speak the providers' wire formats.
 */
export function loopbackIdentityProviders(
  github: FakeGitHub,
  google: FakeGoogle,
  apps: { readonly github: LoopbackApp; readonly google: LoopbackApp },
): OAuthProviderClient[] {
  const loopback = { allowInsecureRequests: true };
  return [
    githubClient({
      clientId: apps.github.clientId,
      clientSecret: new Secret(apps.github.clientSecret),
      endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
      ...loopback,
    }),
    googleClient({
      clientId: apps.google.clientId,
      clientSecret: new Secret(apps.google.clientSecret),
      issuer: google.issuer,
      clock: { now: () => new Date() },
      ...loopback,
    }),
  ];
}
