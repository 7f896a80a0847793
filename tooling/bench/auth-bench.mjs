#!/usr/bin/env node
// @ts-check
// What authentication costs a call (issue 15's budget: at most 0.3 ms on a warm call's P50).
// Two `memsvc-server` processes of the standard profile on one PostgreSQL database: one open
// (ALLOW_UNAUTHENTICATED_HTTP, the tenant from MEMSVC_DEFAULT_USER_ID), one with
// AUTH_REQUIRED=true, called with a per-agent API key made by `memsvc keys create` and with a
// session JWT that key was exchanged for (POST /auth/session), and with an OAuth access token the
// same key consented to (dynamic registration, PKCE, consent, code exchange). All read the same memory with
// `get_memory`, in rotating rounds so drift hits each alike; prints P50 / P95 of each and
// writes bench/results/auth-<timestamp>.json.
// Environment: AUTH_BENCH_CALLS (per round, default 500), AUTH_BENCH_ROUNDS (default 4).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey, mcpClient, ms, percentileSummary, postgresDatabase, startServer } from './bench-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CALLS = Number(process.env.AUTH_BENCH_CALLS ?? 500);
const ROUNDS = Number(process.env.AUTH_BENCH_ROUNDS ?? 4);
const USER = 'bench-user';

/**
 * An OAuth access token for `key`, through the flow an MCP client runs: register, authorize with PKCE, consent, redeem.
 * @param {string} base
 * @param {string} key
 * @returns {Promise<string>}
 */
async function oauthAccessToken(base, key) {
  const redirectUri = 'http://127.0.0.1/callback';
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'auth bench' }),
  });
  const { client_id: clientId } = /** @type {{ client_id: string }} */ (await registered.json());
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const resource = `${OAUTH_BASE}/mcp`;
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'bench',
    scope: 'memories:read',
    resource,
  });
  const page = await fetch(`${base}/oauth/authorize?${query}`);
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const handle = /name="handle" value="([^"]+)"/.exec(await page.text())?.[1];
  const consent = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ handle: /** @type {string} */ (handle), api_key: key, decision: 'approve' }),
  });
  const code = new URL(consent.headers.get('location') ?? 'http://x/').searchParams.get('code');
  if (!code) throw new Error(`consent answered ${consent.status} without a code`);
  const token = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
      resource,
    }),
  });
  const { access_token: accessToken } = /** @type {{ access_token?: string }} */ (await token.json());
  if (!accessToken) throw new Error(`the token endpoint answered ${token.status}`);
  return accessToken;
}

// The issuer and resource the server names; the bench reaches it on its own port (a loopback Host either way).
const OAUTH_BASE = 'http://127.0.0.1';

const database = await postgresDatabase(root);
const servers = [];
try {
  const key = createApiKey(root, database.url, USER, 'auth bench');
  const common = { DATABASE_URL: database.url, DEPLOYMENT_PROFILE: 'standard', MEMSVC_DEFAULT_USER_ID: USER };
  const open = await startServer(root, database.url, { ...common, ALLOW_UNAUTHENTICATED_HTTP: 'true' });
  servers.push(open);
  const authed = await startServer(root, database.url, {
    ...common,
    AUTH_REQUIRED: 'true',
    JWT_SECRET: 'b'.repeat(48),
    OAUTH_REDIRECT_BASE_URL: OAUTH_BASE,
  });
  servers.push(authed);
  const exchanged = await fetch(`${authed.base}/auth/session`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  if (exchanged.status !== 201) throw new Error(`POST /auth/session answered ${exchanged.status}`);
  const { token } = /** @type {{ token: string }} */ (await exchanged.json());
  const oauthToken = await oauthAccessToken(authed.base, key);
  const clients = {
    open: await mcpClient(open.base),
    'api key': await mcpClient(authed.base, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    session: await mcpClient(authed.base, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    oauth: await mcpClient(authed.base, { requestInit: { headers: { authorization: `Bearer ${oauthToken}` } } }),
  };
  const stored = await clients.open.callTool({
    name: 'create_memory',
    arguments: { content: 'The auth bench reads this memory', type: 'long-term' },
  });
  const memoryId = /** @type {{ memory: { id: string } }} */ (stored.structuredContent).memory.id;
  /** @typedef {keyof typeof clients} Credential */
  const names = /** @type {Credential[]} */ (Object.keys(clients));
  const samples = /** @type {Record<Credential, number[]>} */ (
    Object.fromEntries(names.map((name) => [name, /** @type {number[]} */ ([])]))
  );
  const round = async (/** @type {Credential} */ name) => {
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const result = await clients[name].callTool({ name: 'get_memory', arguments: { memoryId } });
      samples[name].push(performance.now() - started);
      if (result.isError) throw new Error(`get_memory failed over ${name}: ${JSON.stringify(result.structuredContent)}`);
    }
  };
  for (const name of names) await round(name);
  for (const name of names) samples[name].length = 0;
  // Each round starts with a different credential, so warm-up and drift spread evenly.
  for (let r = 0; r < ROUNDS; r++)
    for (let i = 0; i < names.length; i++) await round(/** @type {Credential} */ (names[(r + i) % names.length]));
  /** @typedef {import('./bench-support.mjs').PercentileSummary} PercentileSummary */
  /** @type {{ open: PercentileSummary, apiKey: PercentileSummary, session: PercentileSummary, oauth: PercentileSummary, p50CostMs?: number, sessionP50CostMs?: number, oauthP50CostMs?: number }} */
  const summary = {
    open: percentileSummary(samples.open),
    apiKey: percentileSummary(samples['api key']),
    session: percentileSummary(samples.session),
    oauth: percentileSummary(samples.oauth),
  };
  summary.p50CostMs = ms(summary.apiKey.p50 - summary.open.p50);
  summary.sessionP50CostMs = ms(summary.session.p50 - summary.open.p50);
  summary.oauthP50CostMs = ms(summary.oauth.p50 - summary.open.p50);
  console.log('get_memory, PostgreSQL, standard profile     P50 / P95 / P99 (ms)');
  console.log(`  no authentication                           ${summary.open.p50} / ${summary.open.p95} / ${summary.open.p99}`);
  console.log(`  AUTH_REQUIRED=true, per-agent API key       ${summary.apiKey.p50} / ${summary.apiKey.p95} / ${summary.apiKey.p99}`);
  console.log(`  AUTH_REQUIRED=true, session JWT             ${summary.session.p50} / ${summary.session.p95} / ${summary.session.p99}`);
  console.log(`  AUTH_REQUIRED=true, OAuth access token      ${summary.oauth.p50} / ${summary.oauth.p95} / ${summary.oauth.p99}`);
  console.log(
    `  authentication's cost at P50: API key ${summary.p50CostMs} ms, session ${summary.sessionP50CostMs} ms, OAuth ${summary.oauthP50CostMs} ms (budget 0.3 ms)`,
  );
  for (const client of Object.values(clients)) await client.close();
  const out = join(root, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const file = join(out, `auth-${new Date().toISOString().replaceAll(':', '-')}.json`);
  writeFileSync(file, JSON.stringify({ calls: CALLS, rounds: ROUNDS, ...summary }, null, 2));
  console.log(`written to ${file}`);
} finally {
  for (const server of servers) await server.stop();
  await database.drop();
}
