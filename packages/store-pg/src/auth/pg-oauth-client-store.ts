import type { NewOAuthClient, OAuthClientRecord, OAuthClientStore } from '@memsvc/access';
import { type Clock, MemsvcError } from '@memsvc/core';
import type { Kysely, Selectable } from 'kysely';
import type { MemsvcDatabase, OAuthClientsTable } from '../schema/database-schema.js';
import { sqlStateOf, UNIQUE_VIOLATION } from './database-errors.js';
import { checkClientId, checkRedirectUri } from './oauth-row-checks.js';
import { untrustedText } from './untrusted-text.js';

/** A client's name is a label on the consent page. */
const CLIENT_NAME_MAX_LENGTH = 200;
/** Enough for a web client and a few native ports; a registration asking for more is refused. */
const MAX_REDIRECT_URIS = 10;

/** The dependencies of PgOAuthClientStore. */
export interface PgOAuthClientStoreOptions {
  readonly db: Kysely<MemsvcDatabase>;
  readonly clock: Clock;
}

/** Dynamically registered OAuth clients in `oauth_clients` (RFC 7591). */
export class PgOAuthClientStore implements OAuthClientStore {
  readonly #db: Kysely<MemsvcDatabase>;
  readonly #clock: Clock;

  constructor(options: PgOAuthClientStoreOptions) {
    this.#db = options.db;
    this.#clock = options.clock;
  }

  async register(client: NewOAuthClient): Promise<OAuthClientRecord> {
    checkClientId(client.clientId);
    if (client.redirectUris.length === 0 || client.redirectUris.length > MAX_REDIRECT_URIS) {
      throw new MemsvcError('INVALID_INPUT', `redirectUris: between 1 and ${MAX_REDIRECT_URIS} redirect URIs`, { field: 'redirectUris' });
    }
    for (const uri of client.redirectUris) checkRedirectUri(uri, 'redirectUris');
    if (client.clientUri !== null) checkRedirectUri(client.clientUri, 'clientUri');
    try {
      const row = await this.#db
        .insertInto('oauth_clients')
        .values({
          client_id: client.clientId,
          client_name: untrustedText(client.clientName ?? undefined, CLIENT_NAME_MAX_LENGTH),
          client_uri: client.clientUri,
          redirect_uris: [...new Set(client.redirectUris)],
          created_at: this.#clock.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    } catch (error) {
      if (sqlStateOf(error) === UNIQUE_VIOLATION) {
        throw new MemsvcError('CONFLICT', 'a client with this id is already registered', { field: 'clientId' });
      }
      throw error;
    }
  }

  async find(clientId: string): Promise<OAuthClientRecord | undefined> {
    if (clientId.length === 0 || clientId.length > 2000) return undefined;
    const row = await this.#db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }
}

function toRecord(row: Selectable<OAuthClientsTable>): OAuthClientRecord {
  return {
    clientId: row.client_id,
    clientName: row.client_name,
    clientUri: row.client_uri,
    redirectUris: row.redirect_uris,
    createdAt: row.created_at,
  };
}
