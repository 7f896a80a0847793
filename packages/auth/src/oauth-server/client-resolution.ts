import type { OAuthClientRecord, OAuthClientStore } from '@memsvc/access';
import type { Clock } from '@memsvc/core';
import { checkClientMetadata } from './client-metadata.js';
import { ClientMetadataDocuments } from './client-metadata-documents.js';
import { OAuthRefusal } from './oauth-refusal.js';

/**
 * The client a `client_id` names: one registered here (RFC 7591), or — for an https URL — the
 * one its Client ID Metadata Document describes, fetched now and checked like a registration.
 * The document must name its own URL as `client_id`: a copy served elsewhere is not the client.
 * `invalid_client` for anything else, shown on the authorize page and never redirected.
 */
export async function resolveClient(
  clientId: string | null,
  sources: { readonly clients: OAuthClientStore; readonly documents?: ClientMetadataDocuments | undefined; readonly clock: Clock },
): Promise<OAuthClientRecord> {
  if (!clientId) throw new OAuthRefusal('invalid_request', 'client_id is required');
  if (!ClientMetadataDocuments.isDocumentUrl(clientId)) {
    const client = await sources.clients.find(clientId);
    if (!client) throw new OAuthRefusal('invalid_client', 'unknown client_id');
    return client;
  }
  if (!sources.documents) throw new OAuthRefusal('invalid_client', 'this server does not accept client metadata documents');
  const document = await sources.documents.fetch(clientId);
  if (document.client_id !== clientId)
    throw new OAuthRefusal('invalid_client', 'the metadata document does not name its own URL as client_id');
  try {
    return { clientId, ...checkClientMetadata(document), createdAt: sources.clock.now() };
  } catch (error) {
    if (error instanceof OAuthRefusal)
      throw new OAuthRefusal('invalid_client', `the client metadata document is unusable: ${error.message}`);
    throw error;
  }
}
