/** The error codes of RFC 6749 §4.1.2.1 and §5.2, RFC 7591 §3.2.2 and RFC 8707 §2 that memsvc answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

/** The HTTP status of each error at the token and registration endpoints (RFC 6749 §5.2: 400, or 401 for a client). */
const STATUS: Readonly<Record<OAuthErrorCode, 400 | 401 | 403>> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  access_denied: 403,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
};

/**
 * A request the authorization server refuses, with the OAuth error code the RFCs name and a
 * description built from fixed text and the name of the parameter at fault — never from a
 * presented code, token or verifier. A refusal at the authorize endpoint is shown to the person,
 * never redirected to the client (RFC 9700 §4.11.2): see AuthorizationServer.authorize.
 */
export class OAuthRefusal extends Error {
  override readonly name = 'OAuthRefusal';
  readonly status: 400 | 401 | 403;

  constructor(
    readonly code: OAuthErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }

  /** The JSON body of RFC 6749 §5.1. */
  toResponseObject(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.message };
  }
}
