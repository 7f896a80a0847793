import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { OAuthRefusal } from './oauth-refusal.js';
import { isPublicAddress } from './public-address.js';

/** How long fetching a document may take, connect to last byte. */
export const CLIENT_METADATA_TIMEOUT_MS = 5_000;
/** The largest document read: a client's metadata is a few hundred bytes. */
export const CLIENT_METADATA_MAX_BYTES = 64 * 1024;

/** Resolves a host name to every address it has (dns.lookup with `all`, unless a test gives its own). */
export type HostResolver = (host: string) => Promise<readonly LookupAddress[]>;

export interface ClientMetadataDocumentsOptions {
  /**
   * OAUTH_CLIENT_METADATA_ALLOWED_HOSTS: host names whose documents may be fetched although they
   * resolve to loopback or private addresses, and over plain http (tests, development).
   */
  readonly allowedHosts: readonly string[];
  readonly timeoutMs?: number | undefined;
  readonly maxBytes?: number | undefined;
  readonly resolve?: HostResolver | undefined;
}

const systemResolver: HostResolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: false }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

const refused = (message: string) => new OAuthRefusal('invalid_client', message);

/**
 * Client ID Metadata Documents (MCP 2025-11-25, draft-ietf-oauth-client-id-metadata-document):
 * a client whose `client_id` is an https URL is described by the JSON document at that URL.
 * Fetching a URL that anyone may name is a server-side request forgery risk, so: https only;
 * the host is resolved here and EVERY address must be public (no loopback, private, link-local
 * or reserved range); the connection goes to the address that was checked (a custom lookup),
 * so a second DNS answer cannot rebind it elsewhere; no redirects are followed; the document is
 * read with a timeout and a size cap. Hosts named in `allowedHosts` skip the address check and
 * may use http — for tests and development only.
 */
export class ClientMetadataDocuments {
  readonly #allowed: ReadonlySet<string>;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #resolve: HostResolver;

  constructor(options: ClientMetadataDocumentsOptions) {
    this.#allowed = new Set(
      options.allowedHosts
        .map((host) =>
          host
            .trim()
            .toLowerCase()
            .replace(/^\[(.*)\]$/, '$1'),
        )
        .filter((host) => host !== ''),
    );
    this.#timeoutMs = options.timeoutMs ?? CLIENT_METADATA_TIMEOUT_MS;
    this.#maxBytes = options.maxBytes ?? CLIENT_METADATA_MAX_BYTES;
    this.#resolve = options.resolve ?? systemResolver;
  }

  /** Whether a client id is one a metadata document describes (a URL) rather than one we registered. */
  static isDocumentUrl(clientId: string): boolean {
    return /^https?:\/\//i.test(clientId);
  }

  /**
   * The parsed JSON object at `clientId`, or an OAuthRefusal `invalid_client` saying why not
   * (never the document's content). Checks only transport and shape; the caller checks fields.
   */
  async fetch(clientId: string): Promise<Record<string, unknown>> {
    const url = this.#checkedUrl(clientId);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const allowed = this.#allowed.has(host);
    const address = await this.#checkedAddress(host, allowed);
    const body = await this.#get(url, host, address);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw refused('the client metadata document is not JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw refused('the client metadata document is not a JSON object');
    return parsed as Record<string, unknown>;
  }

  #checkedUrl(clientId: string): URL {
    if (clientId.length > 2000 || !URL.canParse(clientId)) throw refused('client_id is not a valid URL');
    const url = new URL(clientId);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const https = url.protocol === 'https:';
    if (!https && !(url.protocol === 'http:' && this.#allowed.has(host))) throw refused('a client_id URL must use https');
    // The draft: a path is required, and no fragment, credentials or dot segments.
    if (
      url.pathname === '/' ||
      clientId.includes('#') ||
      url.username !== '' ||
      url.password !== '' ||
      /\/\.\.?(\/|$)/.test(url.pathname)
    ) {
      throw refused('a client_id URL needs a path, and no fragment, credentials or dot segments');
    }
    return url;
  }

  async #checkedAddress(host: string, allowed: boolean): Promise<LookupAddress> {
    let addresses: readonly LookupAddress[];
    if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await this.#resolve(host);
      } catch {
        throw refused('the client_id host does not resolve');
      }
    }
    const first = addresses[0];
    if (!first) throw refused('the client_id host does not resolve');
    if (!allowed && !addresses.every((entry) => isPublicAddress(entry.address))) {
      throw refused('the client_id host resolves to a private, loopback or reserved address');
    }
    return first;
  }

  #get(url: URL, host: string, address: LookupAddress): Promise<string> {
    // Every connection of this request goes to the checked address, whatever DNS says later.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as (error: null, addresses: LookupAddress[]) => void)(null, [address]);
      else callback(null, address.address, address.family);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<string>((resolve, reject) => {
      const request = send(
        url,
        {
          method: 'GET',
          headers: { accept: 'application/json' },
          lookup: pinned,
          servername: isIP(host) === 0 ? host : undefined,
          timeout: this.#timeoutMs,
          agent: false,
        },
        (response: IncomingMessage) => {
          if (response.statusCode !== 200) {
            response.resume();
            reject(refused(`the client metadata document answered HTTP ${response.statusCode ?? 0}, not 200`));
            return;
          }
          const declared = Number(response.headers['content-length'] ?? 0);
          if (declared > this.#maxBytes) {
            response.destroy();
            reject(refused(`the client metadata document exceeds ${this.#maxBytes} bytes`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > this.#maxBytes) {
              response.destroy();
              reject(refused(`the client metadata document exceeds ${this.#maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          response.on('error', () => reject(refused('the client metadata document could not be read')));
        },
      );
      const deadline = setTimeout(() => request.destroy(new Error('timeout')), this.#timeoutMs);
      deadline.unref();
      request.on('close', () => clearTimeout(deadline));
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => reject(refused('the client metadata document could not be fetched')));
      request.end();
    });
  }
}
