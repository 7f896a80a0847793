/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750; the scheme is
 * case-insensitive), or undefined when the header is absent, names another scheme or carries
 * no token. The one place a credential is taken from a header.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  const token = /^Bearer[ \t]+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  return token ? token : undefined;
}
