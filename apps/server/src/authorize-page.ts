import type { IdentityProvider, OAuthClientRecord, PendingAuthorization, Scope, SessionOrigin } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';

/** What each scope lets a client do, in the words shown to the person consenting. */
const SCOPE_WORDS: Readonly<Record<string, string>> = {
  'memories:read': 'read your memories',
  'memories:write': 'create and change your memories',
  'memories:delete': 'delete your memories',
};

/** A person signed in on the page with GitHub or Google. */
export interface SignedIn {
  readonly userId: TenantId;
  readonly via: SessionOrigin;
}

const PROVIDER_NAMES: Readonly<Record<IdentityProvider, string>> = { github: 'GitHub', google: 'Google' };

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The Content-Security-Policy of the authorize page: nothing loads, nothing runs, it cannot be
 * framed (clickjacking a consent), and its form may post only here — and to the client's
 * redirect origin, since browsers apply `form-action` to the redirect that follows the post.
 */
export function authorizePageHeaders(redirectUri: string | undefined): Record<string, string> {
  let target = '';
  if (redirectUri !== undefined && URL.canParse(redirectUri)) {
    const url = new URL(redirectUri);
    target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  return {
    'Content-Security-Policy': `default-src 'none'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

/** Who is asking, as the person should judge it: the host that vouches for the client, and its own words. */
function clientDescription(client: OAuthClientRecord): string {
  const name = client.clientName ?? 'An unnamed application';
  const vouched = /^https?:\/\//i.test(client.clientId)
    ? `described by <strong>${escapeHtml(new URL(client.clientId).host)}</strong> (${escapeHtml(client.clientId)})`
    : `registered here as <code>${escapeHtml(client.clientId)}</code> (its name is its own claim)`;
  return `<p><strong>${escapeHtml(name)}</strong>, ${vouched}, asks to use this memory server for you.</p>`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/**
 * The consent page: who asks, for what, where the answer goes; a sign-in with an API key, or with
 * GitHub or Google (links that come back here), or, once signed in that way, who the person is.
 */
export function authorizePage(input: {
  client: OAuthClientRecord;
  request: PendingAuthorization;
  handle: string;
  providers: readonly IdentityProvider[];
  signedIn: SignedIn | undefined;
  error?: string | undefined;
}): string {
  const { client, request, handle, signedIn } = input;
  const scopes = request.scopes
    .map((scope: Scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_WORDS[scope] ?? scope)}</li>`)
    .join('');
  const error = input.error ? `<p role="alert"><strong>${escapeHtml(input.error)}</strong></p>` : '';
  const who = signedIn
    ? `<p>Signed in as <strong>${escapeHtml(signedIn.userId)}</strong> with ${escapeHtml(PROVIDER_NAMES[signedIn.via as IdentityProvider] ?? signedIn.via)}. Or use an API key instead:</p>`
    : '';
  const logins = signedIn
    ? ''
    : input.providers.map((provider) => `<p><a href="/oauth/login/${provider}">Sign in with ${PROVIDER_NAMES[provider]}</a></p>`).join('');
  return page(
    'Authorize access to your memories',
    `${clientDescription(client)}
<p>It asks to:</p><ul>${scopes}</ul>
<p>You will be sent back to <code>${escapeHtml(request.redirectUri)}</code>. It gets only the scopes above that you hold.</p>
${error}${logins}${who}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="handle" value="${escapeHtml(handle)}">
<p><label>Sign in with your API key <input type="password" name="api_key" autocomplete="off"></label></p>
<p><button type="submit" name="decision" value="approve">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></p>
</form>`,
  );
}

/** A page for a request that cannot be sent back to the client (unknown client, bad redirect URI, expired). */
export function authorizeErrorPage(message: string): string {
  return page(
    'This authorization request cannot be completed',
    `<p>${escapeHtml(message)}</p><p>Go back to the application and start again.</p>`,
  );
}
