export { DEFAULT_IPV6_RATE_LIMIT_PREFIX } from './domain/address-bucket.js';
export {
  API_KEY_MAX_LIFETIME_DAYS,
  API_KEY_NAME_MAX_LENGTH,
  checkApiKeyName,
  checkKeyScopesHeld,
  keyLifetimeDays,
} from './domain/api-key-rules.js';
export type { DatabaseTarget, DatabaseUrlResult } from './domain/database-url.js';
export { describeDatabaseTarget, parseDatabaseUrl, redactDatabaseUrl } from './domain/database-url.js';
export type { IdentityAccount, IdentityLoginOutcome } from './domain/identity-link-rules.js';
export { checkIdentityAccount, identityLoginOutcome, parseIdentityAccount } from './domain/identity-link-rules.js';
export { isIpOrCidr, isLoopbackHost } from './domain/ip-address.js';
export { isRegisteredRedirectUri, REDIRECT_URI_MAX_LENGTH, redirectUriProblem } from './domain/oauth-redirect-uri.js';
export type { OrganizationRole } from './domain/organization-rules.js';
export { checkOrganizationName, checkOrganizationRole, checkOrganizationSlug, slugFromName } from './domain/organization-rules.js';
export type {
  RateLimitBucket,
  RateLimitBucketKind,
  RateLimitCaller,
  RateLimitDecision,
  RateLimitSettings,
  ToolRateLimit,
} from './domain/rate-limits.js';
export { ADMITTED, checkRateLimitBucket, rateLimitBuckets, refusedDecision, windowStartOf } from './domain/rate-limits.js';
export type { RequestOriginHeaders, RequestOriginPolicyOptions, RequestOriginVerdict } from './domain/request-origin-policy.js';
export { RequestOriginPolicy } from './domain/request-origin-policy.js';
export type { Scope } from './domain/scopes.js';
export { checkScopes, DEFAULT_KEY_SCOPES, isScope, parseScopes, SCOPES } from './domain/scopes.js';
export { isSecret, Secret } from './domain/secret.js';
export type { ApiKeyRecord, ApiKeyStore, NewApiKey } from './ports/api-key-store.js';
export type {
  AuthorizationGrant,
  CodeGrant,
  CodeRedemption,
  NewRefreshFamily,
  OAuthAuthorizationStore,
  PendingAuthorization,
} from './ports/oauth-authorization-store.js';
export type { NewOAuthClient, OAuthClientRecord, OAuthClientStore } from './ports/oauth-client-store.js';
export type { LiveRefreshToken, OAuthRefreshStore, RefreshOutcome } from './ports/oauth-refresh-store.js';
export type { IdentityProvider, OAuthStateStore, PendingLogin } from './ports/oauth-state-store.js';
export type { NewOrganization, OrganizationMember, OrganizationRecord, OrganizationStore } from './ports/organization-store.js';
export type { RateLimitStore } from './ports/rate-limit-store.js';
export type { NewSession, SessionOrigin, SessionRecord, SessionStore } from './ports/session-store.js';
export type { IdentityLink, IdentityLinkChange, IdentityRelink, UserIdentityStore, VerifiedIdentity } from './ports/user-identity-store.js';
export type { AccessService, AccessServiceOptions } from './service/access-service.js';
export { createAccessService } from './service/access-service.js';
export type { AccessProfile, AccessStores, FieldNames, GranteeDirectory } from './service/access-stores.js';
export type { GrantOperations } from './service/grant-access.js';
export { GrantAccess } from './service/grant-access.js';
export { IdentityAccess } from './service/identity-access.js';
export type { IssuedKey, KeyMaker, KeyRequest, KeyRequestField, KeyRevocation, MintedKey } from './service/key-access.js';
export { checkKeyRequest, checkKeysAccepted, KeyAccess } from './service/key-access.js';
export type { CheckedOrganization, OrganizationRequest, OrganizationWithMembers } from './service/organization-access.js';
export { checkOrganizationRequest, OrganizationAccess } from './service/organization-access.js';
export { SessionAccess } from './service/session-access.js';
