import { describe, expect, it } from 'vitest';
import { ClientAddresses } from '../src/addresses/client-addresses.js';

describe('the client address of a request', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    const addresses = new ClientAddresses([]);
    expect(addresses.clientOf('203.0.113.5', '198.51.100.1')).toBe('203.0.113.5');
    expect(addresses.clientOf(undefined, '198.51.100.1')).toBeUndefined();
  });

  it('behind trusted proxies is the nearest untrusted hop, read from the right', () => {
    const addresses = new ClientAddresses(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    // The client wrote a fake first hop; the proxies appended the real one.
    expect(addresses.clientOf('10.1.2.3', '6.6.6.6, 198.51.100.7, 10.9.9.9')).toBe('198.51.100.7');
    expect(addresses.clientOf('::ffff:127.0.0.1', '198.51.100.8')).toBe('198.51.100.8');
    expect(addresses.clientOf('fd00::1', '2001:db8::5')).toBe('2001:db8::5');
    // An untrusted peer's header is ignored; a trusted peer without one is the client itself.
    expect(addresses.clientOf('203.0.113.5', '198.51.100.1')).toBe('203.0.113.5');
    expect(addresses.clientOf('10.1.2.3', undefined)).toBe('10.1.2.3');
    // Garbage in the chain names nobody: the proxy is counted instead of an invented address.
    expect(addresses.clientOf('10.1.2.3', 'not-an-ip')).toBe('10.1.2.3');
    // Every hop trusted: the leftmost is the best guess there is.
    expect(addresses.clientOf('10.1.2.3', '10.0.0.9, 10.0.0.8')).toBe('10.0.0.9');
  });
});
