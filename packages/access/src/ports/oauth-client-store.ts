/** A client of memsvc's authorization server, as registered (RFC 7591) or read from its metadata document. */
export interface OAuthClientRecord {
  /** An id we minted (dynamic registration) or the https URL of its metadata document. */
  readonly clientId: string;
  /** What the client calls itself: untrusted text, shown escaped on the consent page. */
  readonly clientName: string | null;
  /** The client's home page, when it gave one (untrusted, shown escaped). */
  readonly clientUri: string | null;
  /** Every redirect URI the client may use, compared exactly. */
  readonly redirectUris: readonly string[];
  readonly createdAt: Date;
}

/** A client to register: the fields a registration request passed, already checked. */
export interface NewOAuthClient {
  readonly clientId: string;
  readonly clientName: string | null;
  readonly clientUri: string | null;
  readonly redirectUris: readonly string[];
}

/**
 * Clients registered with the authorization server by dynamic registration (RFC 7591). Clients
 * known by a metadata document are not stored: their document is fetched when they ask.
 */
export interface OAuthClientStore {
  /**
   * Records a registered client. INVALID_INPUT naming the field for a malformed id, name, URI or
   * redirect URI (checked here too, so a row can never hold a `javascript:` redirect).
   */
  register(client: NewOAuthClient): Promise<OAuthClientRecord>;

  /** The registered client with this id, or undefined. */
  find(clientId: string): Promise<OAuthClientRecord | undefined>;
}
