import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';

/** A free loopback port, to know a server's public URL before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * An MCP client's OAuth state, as the SDK's `auth()` keeps it through an OAuthClientProvider:
 * its registration (dynamic, or a metadata-document URL), tokens and PKCE verifier. The
 * "browser" is the test: `redirectToAuthorization` only records where it was sent.
 */
export class RecordingOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string | undefined,
    readonly name = 'E2E <script>alert(1)</script> client',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [this.redirectUrl],
      client_name: this.name,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What a person's browser does on the authorize page: open it, keep its cookie, post the form. */
export async function consent(
  authorizationUrl: URL | string,
  answer: { apiKey?: string; decision?: 'approve' | 'deny'; cookie?: string | null },
): Promise<{ page: Response; html: string; decision: Response }> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = answer.cookie === undefined ? (page.headers.get('set-cookie') ?? '').split(';')[0] : answer.cookie;
  const decision = await fetch(new URL('/oauth/authorize', authorizationUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ handle, decision: answer.decision ?? 'approve', api_key: answer.apiKey ?? '' }).toString(),
  });
  return { page, html, decision };
}

/** A loopback server of client metadata documents: `/<name>.json` answers what `documents` holds for it. */
export async function startMetadataHost(documents: Map<string, unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const document = documents.get(request.url ?? '');
    if (document === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(typeof document === 'string' ? document : JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
