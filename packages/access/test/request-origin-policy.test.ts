import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { RequestOriginPolicy, type RequestOriginPolicyOptions } from '../src/index.js';

const policyOf = (options: Partial<RequestOriginPolicyOptions> = {}) =>
  new RequestOriginPolicy({ bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [], publicUrls: [], ...options });
const allowed = (policy: RequestOriginPolicy, host: string | undefined, origin?: string, localPort?: number) =>
  policy.judge({ host, origin, localPort }).allowed;
const reasonOf = (policy: RequestOriginPolicy, host: string | undefined, origin?: string, localPort?: number) => {
  const verdict = policy.judge({ host, origin, localPort });
  return verdict.allowed ? undefined : verdict.reason;
};

describe('a server bound to loopback', () => {
  const loopback = policyOf();

  it(verifies('R-ORIGIN-LOOPBACK', 'answers loopback names in any case and form, on its own port'), () => {
    for (const host of ['localhost', 'LocalHost:3000', '127.0.0.1:3000', '127.1.2.3', '[::1]:3000', '[::1]']) {
      expect(allowed(loopback, host, undefined, 3000), host).toBe(true);
    }
    for (const bind of ['localhost', '::1', '[::1]']) expect(allowed(policyOf({ bindHost: bind }), 'localhost:3000')).toBe(true);
  });

  it(verifies('R-ORIGIN-LOOPBACK', 'refuses a rebound name, a private address, and a port of another service'), () => {
    for (const host of ['evil.example.com', 'evil.example.com:3000', '192.168.1.10:3000', 'localhost.evil.example', '0.0.0.0:3000']) {
      expect(allowed(loopback, host, undefined, 3000), host).toBe(false);
    }
    expect(allowed(loopback, 'localhost:5432', undefined, 3000)).toBe(false);
    expect(reasonOf(loopback, 'localhost:5432', undefined, 3000)).toContain('names port 5432, and this server listens on 3000');
    // In process there is no socket to compare with; the name still decides.
    expect(allowed(loopback, 'localhost:5432')).toBe(true);
  });

  it(verifies('R-ORIGIN-LOOPBACK', 'accepts pages of loopback origins and refuses every other page'), () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'https://LOCALHOST', 'http://[::1]:8080']) {
      expect(allowed(loopback, 'localhost:3000', origin, 3000), origin).toBe(true);
    }
    // The conformance suite's DNS-rebinding request: both headers name the attacker's host.
    expect(allowed(loopback, 'evil.example.com', 'http://evil.example.com')).toBe(false);
    expect(allowed(loopback, 'localhost:3000', 'http://evil.example.com')).toBe(false);
    expect(allowed(loopback, 'localhost:3000', 'https://app.example.com', 3000)).toBe(false);
    expect(allowed(policyOf({ allowedOrigins: ['https://app.example.com'] }), 'localhost:3000', 'https://app.example.com', 3000)).toBe(
      true,
    );
  });
});

describe('a server bound beyond loopback', () => {
  const open = policyOf({
    bindHost: '0.0.0.0',
    allowedHosts: ['memory.example.com', 'internal.example:8443'],
    allowedOrigins: ['https://app.example.com'],
    publicUrls: ['https://mcp.example.org/mcp'],
  });

  it(verifies('R-ORIGIN-CONFIGURED', 'answers loopback names, IP literals, listed hosts and public URLs’ hosts'), () => {
    for (const host of [
      'localhost:3000',
      '10.0.0.7:3000',
      '[fd00::7]:3000',
      'Memory.Example.com',
      'memory.example.com:443',
      'internal.example:8443',
      'mcp.example.org',
    ]) {
      expect(allowed(open, host), host).toBe(true);
    }
    for (const host of ['evil.example.com', 'internal.example:9000', 'internal.example', 'example.com']) {
      expect(allowed(open, host), host).toBe(false);
    }
    expect(allowed(policyOf({ bindHost: '0.0.0.0', allowedHosts: ['*'] }), 'anything.example')).toBe(true);
  });

  it(verifies('R-ORIGIN-CONFIGURED', 'accepts a page of its own origin, a public URL or CORS_ALLOWED_ORIGINS only'), () => {
    expect(allowed(open, 'memory.example.com', 'https://memory.example.com')).toBe(true);
    expect(allowed(open, 'memory.example.com', 'https://app.example.com')).toBe(true);
    expect(allowed(open, 'memory.example.com', 'https://mcp.example.org')).toBe(true);
    expect(allowed(open, 'memory.example.com', 'https://memory.example.com:8443')).toBe(false);
    expect(allowed(open, 'memory.example.com', 'https://evil.example.com')).toBe(false);
    // Loopback pages are not trusted when the server is reachable from elsewhere.
    expect(allowed(open, 'memory.example.com', 'http://localhost:5173')).toBe(false);
    expect(allowed(policyOf({ bindHost: '0.0.0.0', allowedOrigins: ['*'] }), 'localhost', 'https://any.example')).toBe(true);
  });
});

describe('what every server refuses, and why', () => {
  const loopback = policyOf();

  it(verifies('R-ORIGIN-NO-HEADER', 'an agent without an Origin passes on its Host; null and non-http origins do not'), () => {
    expect(allowed(loopback, 'localhost:3000')).toBe(true);
    expect(allowed(loopback, undefined)).toBe(true);
    for (const origin of ['null', 'file://', 'chrome-extension://abcdef', 'not an origin', 'http://localhost:3000/path']) {
      expect(allowed(loopback, 'localhost:3000', origin), origin).toBe(false);
    }
    for (const host of ['', 'local host', 'localhost/evil', 'user@localhost', 'x'.repeat(300)]) {
      expect(allowed(loopback, host), JSON.stringify(host)).toBe(false);
    }
  });

  it(verifies('R-ORIGIN-NO-HEADER', 'Origin null passes only when the browser says the page is the same origin'), () => {
    // Chromium posts a form from a no-referrer page with Origin: null and Sec-Fetch-Site: same-origin.
    expect(loopback.judge({ host: 'localhost:3000', origin: 'null', fetchSite: 'same-origin' }).allowed).toBe(true);
    for (const fetchSite of ['cross-site', 'same-site', 'none', undefined]) {
      expect(loopback.judge({ host: 'localhost:3000', origin: 'null', fetchSite }).allowed, String(fetchSite)).toBe(false);
    }
    // The Host is still checked first: a rebound name's own page is same-origin with itself.
    expect(loopback.judge({ host: 'evil.example.com', origin: 'null', fetchSite: 'same-origin' }).allowed).toBe(false);
  });

  it(verifies('R-ORIGIN-REASON', 'a refusal names the value and the setting to change'), () => {
    expect(reasonOf(loopback, 'evil.example.com')).toMatch(/Host "evil.example.com" is refused.*MEMSVC_ALLOWED_HOSTS/u);
    expect(reasonOf(policyOf({ bindHost: '0.0.0.0' }), 'evil.example.com')).toMatch(/Add "evil.example.com" to MEMSVC_ALLOWED_HOSTS/u);
    expect(reasonOf(loopback, 'localhost', 'https://app.example.com')).toMatch(
      /Origin "https:\/\/app.example.com" is refused.*CORS_ALLOWED_ORIGINS/u,
    );
    expect(reasonOf(loopback, 'localhost', 'null')).toContain('opaque origin');
  });
});
