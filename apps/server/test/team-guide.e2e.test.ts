import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { runInProcess } from '../../cli/test/support/run-in-process.js';
import { BearerClients } from './support/bearer-clients.js';
import { freePort } from './support/oauth-clients.js';
import { type ServerProcess, serverEnv, startHttpServer } from './support/server-process.js';
import { call } from './support/tool-calls.js';

const pgUrl = inject('pgvectorTestUrl');
const run = promisify(execFile);
const dashboardBin = fileURLToPath(new URL('../../dashboard/dist/memsvc-dashboard.js', import.meta.url));
const PAYMENTS = 'project:payments';
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

interface CreatedKey {
  readonly id: string;
  readonly userId: string;
  readonly key: string;
}

/**
 * docs/team.md, step by step: this file runs the guide's commands in the guide's order, on a
 * fresh PostgreSQL database, with the real memsvc-server over streamable HTTP on the standard
 * profile with AUTH_REQUIRED, memsvc-dashboard beside it, and the operator CLI in process (as the
 * CLI's own tests run it). A step changed in the guide is changed here, and the other way round.
 */
describe.skipIf(!pgUrl)('docs/team.md: a team server on PostgreSQL, from nothing', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'memsvc-team-guide-'));
  const clients = new BearerClients();
  const databases: TestDatabase[] = [];
  let env: Record<string, string> = {};
  let server: ServerProcess | undefined;
  let dashboard: ChildProcess | undefined;
  let base = '';
  const keys: Record<string, CreatedKey> = {};
  const memsvc = (args: string[], extra: Record<string, string> = {}) => runInProcess('memsvc', args, { ...env, ...extra }, workDir);
  const lastJson = <T>(stdout: string) => JSON.parse(stdout.trimEnd().split('\n').at(-1) ?? '') as T;

  beforeAll(async () => {
    // Step 1: an empty database, and pgvector (with btree_gin) created in it by a superuser.
    const database = await createTestDatabase(pgUrl ?? '', 'memsvc_team_guide');
    databases.push(database);
    await onDatabase(database.url, 'CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS btree_gin');
    // Step 2: the environment file. Loopback stands for the guide's private address (no proxy
    // here), and a port chosen first, because OAUTH_REDIRECT_BASE_URL names it.
    base = `http://127.0.0.1:${await freePort()}`;
    env = {
      DATABASE_URL: database.url,
      DEPLOYMENT_PROFILE: 'standard',
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 'a-team-secret-of-at-least-32-characters-0123456789',
      MCP_ADMIN_TOKEN: 'an-admin-token-for-the-team-guide-test',
      MCP_TRANSPORT: 'streamable-http',
      HOST: '127.0.0.1',
      PORT: new URL(base).port,
      EMBEDDING_PROVIDER: 'local',
      MEMSVC_SERVER_JOBS: 'true',
      OAUTH_REDIRECT_BASE_URL: base,
      MEMSVC_MCP_URL: `${base}/mcp`,
      MCP_TOOL_SETS: 'agent,sharing,connectors,admin',
      NODE_ENV: 'production',
    };
  });
  afterAll(async () => {
    await clients.closeAll();
    await server?.stop();
    if (dashboard && dashboard.exitCode === null) {
      const exited = new Promise((resolve) => dashboard?.once('exit', resolve));
      dashboard.kill('SIGTERM');
      await exited;
    }
    for (const database of databases.splice(0)) await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('step 2: the configuration checks out and the schema is migrated', async () => {
    const check = await memsvc(['config', 'check']);
    expect(check.code, check.stderr).toBe(0);
    const migrated = await memsvc(['migrate']);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('applied 0001-initial-schema');
  });

  it('step 3: memsvc-server starts on the standard profile and refuses a call without a key (401)', async () => {
    server = await startHttpServer(env);
    expect(server.url).toBe(base);
    const anonymous = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'recall', arguments: { query: 'refunds' } } }),
    });
    expect(anonymous.status).toBe(401);
    // OAuth is on (step 7): the refusal tells a connector where to sign in.
    expect(anonymous.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('step 4: one key per agent, and each key makes its person a user', async () => {
    for (const [label, user, name, scopes] of [
      ['alice', ALICE, "alice's laptop agent", undefined],
      ['bob', BOB, "bob's laptop agent", undefined],
      ['bot', 'release-bot', 'release notes bot', 'memories:read'],
    ] as const) {
      const created = await memsvc(['keys', 'create', '--user', user, '--name', name, ...(scopes ? ['--scopes', scopes] : []), '--json']);
      expect(created.code, created.stderr).toBe(0);
      keys[label] = lastJson<CreatedKey>(created.stdout);
      expect(keys[label]).toMatchObject({ userId: user, key: expect.stringMatching(/^msk_/) });
    }
    const listed = await memsvc(['keys', 'list', '--user', ALICE]);
    expect(listed.stdout).toContain("alice's laptop agent");
    expect(listed.stdout).not.toContain(keys.alice?.key ?? 'no key');
  });

  it('step 5: two agents with their own keys store and recall their own memories, not each other’s', async () => {
    const alice = await clients.connect(base, keys.alice?.key ?? '');
    const bob = await clients.connect(base, keys.bob?.key ?? '');
    await remember(alice, 'The payments service retries refunds three times before paging', PAYMENTS);
    await remember(alice, 'Alice pays her dentist refunds into the savings account', 'personal');
    await remember(bob, 'Bob prefers refunds batched on Fridays', 'personal');

    const aliceRecall = await recalled(alice, 'refunds');
    expect(aliceRecall).toEqual(expect.arrayContaining([expect.stringContaining('three times'), expect.stringContaining('dentist')]));
    expect(aliceRecall.join('\n')).not.toContain('Fridays');
    const bobRecall = await recalled(bob, 'refunds');
    expect(bobRecall).toEqual([expect.stringContaining('Fridays')]);
    // A userId in the input is ignored for a key: bob's key reaches bob only.
    expect(await recalled(bob, 'refunds', { userId: ALICE })).toEqual([expect.stringContaining('Fridays')]);
  });

  it("step 6: a grant lets bob's agent read alice's shared space, and nothing else of hers", async () => {
    const granted = await memsvc(['grants', 'create', '--owner', ALICE, '--space', PAYMENTS, '--user', BOB, '--access', 'read', '--json']);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stderr).not.toContain('warning'); // bob exists: step 4 gave him a key
    const grantId = lastJson<{ id: string }>(granted.stdout).id;
    const grantsOfBob = await memsvc(['grants', 'list', '--user', BOB]);
    expect(grantsOfBob.stdout).toMatch(/received:\n.*\n.*alice@example\.com\s+project:payments\s+user bob@example\.com\s+read/);

    const bob = await clients.connect(base, keys.bob?.key ?? '');
    const listed = (await bob.listTools()).tools.map((tool) => tool.name);
    expect(listed).toEqual(expect.arrayContaining(['remember', 'recall', 'list_grants', 'use_shared_space', 'search', 'fetch']));
    // Read once by asking for every shared space; then chosen to be read by default.
    const once = await call(bob, 'recall', { query: 'refunds', shared: 'all' });
    const sharedHit = once.body.results.find((hit: { text: string }) => hit.text.includes('three times'));
    expect(sharedHit?.shared).toEqual({ owner: ALICE, space: PAYMENTS });
    expect(once.body.results.map((hit: { text: string }) => hit.text).join('\n')).not.toContain('dentist');
    expect(await recalled(bob, 'refunds')).toEqual([expect.stringContaining('Fridays')]);
    const received = await call(bob, 'list_grants', {});
    expect(received.body.received).toEqual([expect.objectContaining({ id: grantId, byDefault: false })]);
    expect((await call(bob, 'use_shared_space', { grantId, byDefault: true })).isError).toBe(false);
    const byDefault = await recalled(bob, 'refunds');
    expect(byDefault).toEqual(expect.arrayContaining([expect.stringContaining('Fridays'), expect.stringContaining('three times')]));
    expect(byDefault.join('\n')).not.toContain('dentist');

    // A read-only grant writes nothing into the space.
    const write = await call(bob, 'remember', { content: 'Refunds now retry five times', scope: PAYMENTS, owner: ALICE });
    expect(write.body.error?.code).toBe('FORBIDDEN');
    // The read-only bot key reads its own user's memories and writes none.
    const bot = await clients.connect(base, keys.bot?.key ?? '');
    expect((await call(bot, 'remember', { content: 'The release notes bot ran', scope: 'releases' })).body.error?.code).toBe('FORBIDDEN');
  });

  it('step 7: OAuth for connectors is on at OAUTH_REDIRECT_BASE_URL', async () => {
    const metadata = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
  });

  it('step 8: memsvc-dashboard runs beside the server on the same database and environment', async () => {
    const port = await freePort();
    const dashboardEnv = { ...env, PORT: String(port), OAUTH_REDIRECT_BASE_URL: `http://127.0.0.1:${port}` };
    dashboard = spawn(process.execPath, [dashboardBin], { env: serverEnv(dashboardEnv), stdio: ['ignore', 'pipe', 'pipe'] });
    await untilListening(dashboard, 'dashboard listening');
    const signIn = await fetch(`http://127.0.0.1:${port}/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('API key');
    const memories = await fetch(`http://127.0.0.1:${port}/memories`, { redirect: 'manual' });
    expect(memories.status).toBeGreaterThanOrEqual(300); // no session: sent to sign in
  });

  it("step 9: a user's export, and pg_dump restored into a new database holding the same memories", async () => {
    const exportFile = join(workDir, 'alice.jsonl');
    const exported = await memsvc(['export', '--user', ALICE, '--out', exportFile]);
    expect(exported.code, exported.stderr).toBe(0);
    const aliceExport = readFileSync(exportFile, 'utf8');
    expect(aliceExport).toContain('three times');
    expect(aliceExport).toContain('dentist');
    expect(aliceExport).not.toContain('Fridays');

    const dump = join(workDir, 'memsvc.dump');
    await run('pg_dump', ['--format=custom', '--file', dump, '--dbname', env.DATABASE_URL ?? '']);
    const restored = await createTestDatabase(pgUrl ?? '', 'memsvc_team_guide_restored');
    databases.push(restored);
    await run('pg_restore', ['--exit-on-error', '--dbname', restored.url, dump]);
    const status = await memsvc(['status'], { DATABASE_URL: restored.url });
    expect(status.code, status.stderr).toBe(0);
    const again = join(workDir, 'alice-restored.jsonl');
    expect((await memsvc(['export', '--user', ALICE, '--out', again], { DATABASE_URL: restored.url })).code).toBe(0);
    expect(contents(readFileSync(again, 'utf8'))).toEqual(contents(aliceExport));
  });
});

async function remember(client: Client, content: string, scope: string): Promise<void> {
  const stored = await call(client, 'remember', { content, scope, type: 'long-term' });
  expect(stored.isError, JSON.stringify(stored.body)).toBe(false);
}

async function recalled(client: Client, query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const answer = await call(client, 'recall', { query, ...extra });
  expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  return answer.body.results.map((hit: { text: string }) => hit.text);
}

/** The memories' contents of a JSONL export, sorted: what a restore must bring back. */
function contents(jsonl: string): string[] {
  return jsonl
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { kind?: string; content?: string })
    .flatMap((record) => (typeof record.content === 'string' ? [record.content] : []))
    .sort();
}

async function onDatabase(url: string, statements: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}

function untilListening(child: ChildProcess, marker: string): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (output.includes(marker)) resolve();
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}
