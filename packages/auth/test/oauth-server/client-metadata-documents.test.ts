import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../../core/test/requirements.js';
import { ClientMetadataDocuments, isPublicAddress, type OAuthRefusal } from '../../src/index.js';

/** A loopback server whose answers each test chooses by path. */
let server: Server;
let port = 0;
const connections: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    connections.push(request.url ?? '');
    switch (request.url) {
      case '/client.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: 'x', redirect_uris: [] }));
        return;
      case '/huge.json':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`"${'x'.repeat(70_000)}"`);
        return;
      case '/redirect.json':
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
        return;
      case '/slow.json':
        return; // never answers
      default:
        response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'fetched',
    (error: OAuthRefusal) => `${error.code}: ${error.message}`,
  );

describe('client metadata documents', () => {
  it('tells public addresses from loopback, private, link-local, reserved and mapped ones', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '64:ff9b::7f00:1',
      'localhost',
      '',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('OAUTH-CIMD: refuses before connecting anything but https, a root path, a fragment, credentials, and any host with a non-public address among its answers', async () => {
    const resolveTo = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const documents = new ClientMetadataDocuments({ allowedHosts: [], resolve: resolveTo(['93.184.216.34', '10.0.0.5']) });
    const before = connections.length;
    expect(await refusalOf(documents.fetch(`http://127.0.0.1:${port}/client.json`))).toBe('invalid_client: a client_id URL must use https');
    expect(await refusalOf(documents.fetch('https://app.example.com/'))).toMatch(/needs a path/);
    expect(await refusalOf(documents.fetch('https://app.example.com/c.json#x'))).toMatch(/no fragment/);
    expect(await refusalOf(documents.fetch('https://u:p@app.example.com/c.json'))).toMatch(/credentials/);
    // One private address among public ones is enough to refuse: DNS could hand out either.
    expect(await refusalOf(documents.fetch('https://app.example.com/c.json'))).toMatch(/private, loopback or reserved/);
    for (const literal of [
      'https://127.0.0.1/c.json',
      'https://[::1]/c.json',
      'https://169.254.169.254/latest',
      'https://[::ffff:7f00:1]/c.json',
    ]) {
      expect(await refusalOf(documents.fetch(literal)), literal).toMatch(/private, loopback or reserved/);
    }
    expect(connections.length).toBe(before);
  });

  it(
    verifies(
      'OAUTH-CIMD-IPV6',
      'refuses IPv6 forms that embed IPv4 (compatible ::a.b.c.d, translated ::ffff:0:a.b.c.d) and every range outside global unicast',
    ),
    async () => {
      const notPublic = [
        // IPv4-compatible, deprecated (RFC 4291 §2.5.5.1): ::127.0.0.1 is ::7f00:1.
        '::127.0.0.1',
        '::7f00:1',
        '::169.254.169.254',
        '::8.8.8.8',
        // IPv4-translated (RFC 2765 SIIT): ::ffff:0:a.b.c.d.
        '::ffff:0:7f00:1',
        '::ffff:0:169.254.169.254',
        '::ffff:0:808:808',
        // Site-local, deprecated (RFC 3879).
        'fec0::1',
        // RFC 6890's registry and its later entries: benchmarking, ORCHIDv2, documentation 3fff::/20, SRv6 SIDs.
        '2001:2::1',
        '2001:20::1',
        '3fff::1',
        '5f00::1',
        // Unassigned by IANA (only 2000::/3 is global unicast).
        '4000::1',
        '1::1',
      ];
      for (const address of notPublic) expect(isPublicAddress(address), address).toBe(false);
      const documents = new ClientMetadataDocuments({
        allowedHosts: [],
        resolve: async () => [{ address: '::ffff:0:7f00:1', family: 6 }],
      });
      for (const literal of [
        'https://[::127.0.0.1]/c.json',
        'https://[::7f00:1]/c.json',
        'https://[::ffff:0:7f00:1]/c.json',
        'https://[::ffff:0:169.254.169.254]/c.json',
        'https://[fec0::1]/c.json',
        'https://app.example.com/c.json',
      ]) {
        expect(await refusalOf(documents.fetch(literal)), literal).toMatch(/private, loopback or reserved/);
      }
      for (const address of ['2606:4700:4700::1111', '2a00:1450:4001::200e']) expect(isPublicAddress(address), address).toBe(true);
    },
  );

  it('connects to the address it checked, resolving once: a name that no DNS knows is fetched from the address its resolver gave', async () => {
    let lookups = 0;
    const documents = new ClientMetadataDocuments({
      allowedHosts: ['metadata.invalid'],
      resolve: async () => {
        lookups += 1;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    expect(await documents.fetch(`http://metadata.invalid:${port}/client.json`)).toEqual({ client_id: 'x', redirect_uris: [] });
    expect(lookups).toBe(1);
  });

  it('reads at most the size cap, follows no redirect, gives up after the timeout, and refuses non-JSON', async () => {
    const documents = new ClientMetadataDocuments({ allowedHosts: ['localhost', '127.0.0.1'], timeoutMs: 300 });
    expect(await refusalOf(documents.fetch(`http://127.0.0.1:${port}/huge.json`))).toMatch(/exceeds 65536 bytes/);
    expect(await refusalOf(documents.fetch(`http://127.0.0.1:${port}/redirect.json`))).toMatch(/HTTP 302, not 200/);
    const started = performance.now();
    expect(await refusalOf(documents.fetch(`http://127.0.0.1:${port}/slow.json`))).toMatch(/could not be fetched/);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await refusalOf(documents.fetch(`http://127.0.0.1:${port}/missing.json`))).toMatch(/HTTP 404/);
  });
});
