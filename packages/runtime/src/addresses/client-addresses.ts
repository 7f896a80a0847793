import { BlockList, isIP } from 'node:net';

/**
 * What a request served by Hono's node adapter shows of its client: the socket in `env.incoming`
 * and the headers. A structural type, so the runtime does not depend on Hono.
 */
export interface ServedRequest {
  readonly env: unknown;
  readonly req: { header(name: string): string | undefined };
}

/**
 * Who the client of a request is, for the per-IP rate limit. The socket's peer is the client,
 * unless that peer is a proxy the operator trusts (MEMSVC_TRUSTED_PROXIES): then the client is
 * the nearest address in `X-Forwarded-For` that is not itself a trusted proxy, read from the
 * right — the entries to its left were written by the client and prove nothing. Without trusted
 * proxies the header is ignored, so nobody can pick their own address.
 */
export class ClientAddresses {
  readonly #trusted = new BlockList();
  readonly #any: boolean;

  constructor(trustedProxies: readonly string[]) {
    this.#any = trustedProxies.length > 0;
    for (const entry of trustedProxies) {
      const [address = '', prefix] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.#trusted.addAddress(address, family);
      else this.#trusted.addSubnet(address, Number(prefix), family);
    }
  }

  /** The client of a request served by Hono's node adapter (undefined for an in-process request). */
  ofRequest(c: ServedRequest): string | undefined {
    const peer = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
    return this.clientOf(peer, c.req.header('x-forwarded-for'));
  }

  /** The client's address; undefined when the socket has none (an in-process request). */
  clientOf(peer: string | undefined, forwardedFor: string | undefined): string | undefined {
    if (peer === undefined || !this.#any || !this.#isTrusted(peer) || forwardedFor === undefined) return peer;
    const hops = forwardedFor
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop.length > 0);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] ?? '';
      if (isIP(hop) === 0) return peer; // a malformed chain names nobody; fall back to the proxy
      if (!this.#isTrusted(hop)) return hop;
    }
    return hops[0] ?? peer;
  }

  #isTrusted(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    if (this.#trusted.check(address, family === 6 ? 'ipv6' : 'ipv4')) return true;
    // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; a list of IPv4 ranges must match them.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    return mapped !== undefined && this.#trusted.check(mapped, 'ipv4');
  }
}
