import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { isRegisteredRedirectUri, redirectUriProblem } from '../src/index.js';

describe('redirect URIs', () => {
  it(verifies('OAUTH-REDIRECT-URI', 'match exactly: a trailing slash, a case or a query differs'), () => {
    const registered = ['https://client.example.com/callback'];
    expect(isRegisteredRedirectUri(registered, 'https://client.example.com/callback')).toBe(true);
    for (const presented of [
      'https://client.example.com/callback/',
      'https://Client.example.com/callback',
      'https://client.example.com/callback?x=1',
      'https://client.example.com:8443/callback',
      'http://client.example.com/callback',
    ]) {
      expect(isRegisteredRedirectUri(registered, presented), presented).toBe(false);
    }
  });

  it(verifies('OAUTH-REDIRECT-URI', 'a loopback redirect matches on any port, its host and path still exactly'), () => {
    const registered = ['http://localhost/callback', 'http://127.0.0.1:8080/oauth/callback'];
    expect(isRegisteredRedirectUri(registered, 'http://localhost:49927/callback')).toBe(true);
    expect(isRegisteredRedirectUri(registered, 'http://localhost/callback')).toBe(true);
    expect(isRegisteredRedirectUri(registered, 'http://127.0.0.1:50123/oauth/callback')).toBe(true);
    for (const presented of [
      'http://localhost:49927/callback/',
      'http://127.0.0.1:49927/callback',
      'http://localhost:49927/other',
      'https://localhost:49927/callback',
      'http://localhost.evil.example:49927/callback',
      'http://localhost:49927@evil.example/callback',
    ]) {
      expect(isRegisteredRedirectUri(registered, presented), presented).toBe(false);
    }
    // Only loopback: a registered https URI's port is part of it.
    expect(isRegisteredRedirectUri(['https://client.example.com/cb'], 'https://client.example.com:444/cb')).toBe(false);
  });

  it(verifies('OAUTH-REDIRECT-URI', 'refuses code-running schemes, fragments, credentials and non-loopback http'), () => {
    for (const uri of [
      'javascript:alert(1)',
      'data:text/html,x',
      'https://client.example.com/cb#frag',
      'https://user:pw@client.example.com/cb',
      'http://client.example.com/cb',
      'relative/path',
      '',
    ]) {
      expect(redirectUriProblem(uri), uri).toBeDefined();
    }
    for (const uri of ['https://client.example.com/cb', 'http://127.0.0.1:3000/cb', 'http://[::1]/cb', 'com.example.app:/callback']) {
      expect(redirectUriProblem(uri), uri).toBeUndefined();
    }
  });
});
