import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
