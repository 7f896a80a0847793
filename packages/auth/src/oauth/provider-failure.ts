import { LoginRefused } from './login-refused.js';

// A provider's error code or a library's error name is safe to log only when it looks like one;
// anything else could be an echo of a token or a code, so it is dropped.
const SAFE_WORD = /^[A-Za-z0-9_.:-]{1,64}$/;

function safeWord(value: unknown): string | undefined {
  return typeof value === 'string' && SAFE_WORD.test(value) ? value : undefined;
}

/**
 * A short description of why a provider call failed, for LoginRefused.detail. It reads only
 * error names, codes and HTTP statuses: the libraries put response bodies (which can hold an
 * access token) in their errors' `cause`, so neither the cause nor the message is copied.
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return 'unexpected failure';
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'request timed out';
  const fields = error as Error & { code?: unknown; error?: unknown; status?: unknown; claim?: unknown; cause?: unknown };
  const parts = [safeWord(fields.code) ?? safeWord(error.name) ?? 'Error'];
  // oauth4webapi's ResponseBodyError carries the provider's OAuth error code and HTTP status.
  const oauthError = safeWord(fields.error);
  if (oauthError) parts.push(oauthError);
  // The HTTP status: on ResponseBodyError itself, or on the Response that oauth4webapi's
  // "not a conform response" errors keep as their cause.
  const status = typeof fields.status === 'number' ? fields.status : fields.cause instanceof Response ? fields.cause.status : undefined;
  if (status !== undefined) parts.push(`HTTP ${status}`);
  // jose's claim validation errors name the claim that failed (aud, iss, exp, …).
  const claim = safeWord(fields.claim);
  if (claim) parts.push(`claim ${claim}`);
  if (error.name === 'TypeError' && parts.length === 1) parts.push('network or protocol error');
  return parts.join(' ');
}

/**
 * Turns whatever a provider call threw into a LoginRefused: a refusal passes through as it is,
 * anything else becomes a provider error naming the stage that failed.
 */
export function providerFailure(stage: string, error: unknown): LoginRefused {
  if (error instanceof LoginRefused) return error;
  return new LoginRefused('provider-error', `${stage}: ${describeFailure(error)}`);
}
