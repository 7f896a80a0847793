/** Why a login was refused; each maps to one HTTP status and one fixed message. */
export type LoginRefusalReason =
  | 'unknown-state'
  | 'other-browser'
  | 'provider-error'
  | 'email-unverified'
  | 'provider-denied'
  | 'invalid-callback'
  | 'identity-blocked'
  | 'identity-email-changed';

// Fixed texts, never built from input: a callback's code and state, the provider's tokens and our
// client secret must not reach a browser or a log line through an error message.
const MESSAGES: Readonly<Record<LoginRefusalReason, string>> = {
  'unknown-state': 'This login link is unknown, expired or already used. Please start the login again.',
  'other-browser': 'This login was not started in this browser (or its cookie is gone). Please start the login again here.',
  'provider-error': 'The identity provider could not confirm who you are. Please try again later.',
  'email-unverified': 'Your account at the identity provider has no verified email address. Verify one there, then log in again.',
  'provider-denied': 'The login was cancelled or refused at the identity provider.',
  'invalid-callback': 'The login callback is incomplete. Please start the login again.',
  'identity-blocked': 'This account may not log in to this server. If you think that is a mistake, ask its operator.',
  'identity-email-changed':
    'The verified email of this account is no longer the one it was linked to on this server, so it cannot log in. ' +
    'Ask the operator of this server to link your account again.',
};

/** The refusals of a person the server knows but will not let in: 403 rather than 401. */
const FORBIDDEN: ReadonlySet<LoginRefusalReason> = new Set(['email-unverified', 'identity-blocked', 'identity-email-changed']);

/**
 * A login that did not produce a session. `status` is what the server answers: 403 when the
 * person is known but may not log in (no verified email, a blocked account, an account whose
 * email no longer matches its link), 401 for everything else. `detail` is
 * for operators' logs: built only from fixed text, HTTP statuses and library error codes.
 */
export class LoginRefused extends Error {
  override readonly name = 'LoginRefused';
  readonly status: 401 | 403;

  constructor(
    readonly reason: LoginRefusalReason,
    readonly detail?: string,
  ) {
    super(MESSAGES[reason]);
    this.status = FORBIDDEN.has(reason) ? 403 : 401;
  }
}

/** Narrows an unknown thrown value to a LoginRefused, optionally of one reason. */
export function isLoginRefused(value: unknown, reason?: LoginRefusalReason): value is LoginRefused {
  return value instanceof LoginRefused && (reason === undefined || value.reason === reason);
}
