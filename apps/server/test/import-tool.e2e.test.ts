import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, e2eEngines, type Structured } from './support/tool-calls.js';
import { inProcessConnection, type ToolConnection } from './support/tool-connections.js';

const ADMIN_TOKEN = 'an-admin-token-for-tests-0123456789';
const workDir = mkdtempSync(join(tmpdir(), 'memsvc-import-tool-'));
const root = join(workDir, 'root');
const outside = join(workDir, 'outside');
mkdirSync(root);
mkdirSync(outside);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** A FIFO where the system can make one (mkfifo); undefined where it cannot. */
function makeFifo(path: string): string | undefined {
  try {
    execFileSync('mkfifo', [path]);
    return path;
  } catch {
    return undefined;
  }
}
const FIFO_AVAILABLE = makeFifo(join(workDir, 'probe')) !== undefined;

/**
 * The file with every id moved to a new one, order kept: ids are global, so a copy into another
 * tenant of the SAME database needs new ones (the same ids would be a CONFLICT, tested below).
 * The ids are UUIDv7s of 2026, all starting with 0: a leading 1 keeps their order.
 */
const renumbered = (file: string) => file.replaceAll(/"0([0-9a-f]{7}-[0-9a-f]{4}-7)/g, '"1$1');

describe.each(e2eEngines('memsvc_import_tool'))('import_agent_memory [$name]', (engine) => {
  let connection: ToolConnection;
  let client: Client;
  let exported = '';
  const importTool = (args: Record<string, unknown>) =>
    call(client, 'import_agent_memory', { adminToken: ADMIN_TOKEN, source: 'memsvc', ...args });
  const exportOf = async (userId: string) => {
    const page = await call(client, 'export_memories', {
      userId,
      includeAudit: true,
      includeHistory: true,
      includeDeleted: true,
      includeSuperseded: true,
      includeVectors: true,
    });
    return `${(page.body.lines as string[]).join('\n')}\n`;
  };
  const body = (file: string) => file.split('\n').slice(1).join('\n');

  beforeAll(async () => {
    connection = await inProcessConnection({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'local',
      MCP_ADMIN_TOKEN: ADMIN_TOKEN,
      IMPORT_ALLOWED_ROOT: root,
    });
    client = connection.client;
    for (const content of ['The deploy target is eu-west-1', 'Alice takes her coffee black', 'Release notes live in docs/release.md']) {
      await call(client, 'create_memory', { userId: 'alice', content, type: 'long-term', tags: ['seed'], metadata: { n: { deep: 1 } } });
    }
    exported = await exportOf('alice');
    writeFileSync(join(root, `alice-${engine.name}.jsonl`), renumbered(exported));
  });
  afterAll(async () => {
    await connection?.close();
  });

  it('imports a server-side export into another tenant; exporting that tenant gives the same lines', async () => {
    const dry = await importTool({ userId: 'bea', path: `alice-${engine.name}.jsonl`, dryRun: true });
    expect(dry.body).toMatchObject({ source: 'memsvc', dryRun: true, totals: { parsed: 3, created: 3, skipped: 0, failed: 0 } });
    expect(body(await exportOf('bea'))).toBe('');

    const run = await importTool({ userId: 'bea', path: join(root, `alice-${engine.name}.jsonl`) });
    expect(run.isError).toBe(false);
    expect((run.body.files as Structured[])[0]).toMatchObject({ parsed: 3, created: 3, skipped: 0, failed: 0 });
    expect(body(await exportOf('bea'))).toBe(body(renumbered(exported)));

    const again = await importTool({ userId: 'bea', files: [{ path: 'inline.jsonl', content: renumbered(exported) }] });
    expect(again.body.totals).toMatchObject({ parsed: 3, created: 0, skipped: 3 });
  });

  it('reports a bad inline file as failed, naming the line, and a CONFLICT for ids of another tenant; writes nothing', async () => {
    const broken = `${exported.split('\n').slice(0, 2).join('\n')}\n{"not": "a memory"}\n`;
    const result = await importTool({
      userId: 'cleo',
      files: [
        { path: 'broken.jsonl', content: broken },
        { path: 'taken.jsonl', content: exported },
      ],
    });
    expect(result.isError).toBe(false);
    const [bad, taken] = result.body.files as Structured[];
    expect(bad).toMatchObject({ path: 'broken.jsonl', created: 0, failed: 2, error: { code: 'INVALID_INPUT', data: { line: 3 } } });
    expect(taken).toMatchObject({ path: 'taken.jsonl', created: 0, failed: 3, error: { code: 'CONFLICT', data: { field: 'id' } } });
    expect(result.body.totals).toMatchObject({ created: 0, failedFiles: 2 });
    expect(body(await exportOf('cleo'))).toBe('');
  });

  it('is an admin tool, and refuses an unknown source and a call with both or neither of path and files', async () => {
    const noToken = await call(client, 'import_agent_memory', { source: 'memsvc', userId: 'bea', path: 'x.jsonl' });
    expect(noToken.body).toMatchObject({ error: { code: 'INVALID_INPUT', data: { field: 'adminToken' } } });
    const wrongToken = await call(client, 'import_agent_memory', {
      adminToken: 'not-the-token',
      source: 'memsvc',
      userId: 'bea',
      path: 'x.jsonl',
    });
    expect(wrongToken.body).toMatchObject({ error: { code: 'FORBIDDEN', data: { field: 'adminToken' } } });
    const source = await importTool({ source: 'windsurf', userId: 'bea', path: 'x.jsonl' });
    expect(source.body).toMatchObject({ error: { code: 'INVALID_INPUT', data: { field: 'source' } } });
    expect(source.body.error.data.supported).toContain('claude-code');
    expect(source.body.error.message).toMatch(/supported sources: memsvc, claude-code/);
    // An export is restored as it was: the agent sources' options do not apply to it.
    const scoped = await importTool({ userId: 'bea', path: 'x.jsonl', scope: 'work' });
    expect(scoped.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'scope' } });
    expect((await importTool({ userId: 'bea' })).body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'path' } });
    const both = await importTool({ userId: 'bea', path: 'x.jsonl', files: [{ path: 'y', content: exported }] });
    expect(both.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'files' } });
  });

  it('refuses paths outside IMPORT_ALLOWED_ROOT, symlinks out of it, FIFOs, huge, binary and non-UTF-8 files, before writing', async () => {
    writeFileSync(join(outside, 'secret.jsonl'), exported);
    symlinkSync(join(outside, 'secret.jsonl'), join(root, `link-${engine.name}.jsonl`));
    symlinkSync(outside, join(root, `dir-${engine.name}`));
    writeFileSync(join(root, `binary-${engine.name}.jsonl`), Buffer.from([0x7b, 0x00, 0x7d]));
    writeFileSync(join(root, `latin1-${engine.name}.jsonl`), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(root, `huge-${engine.name}.jsonl`), '');
    truncateSync(join(root, `huge-${engine.name}.jsonl`), 50 * 1024 * 1024 + 1); // sparse: no 50 MB written
    const fifo = makeFifo(join(root, `fifo-${engine.name}`));

    const cases: [string, string][] = [
      ['../outside/secret.jsonl', 'FORBIDDEN'],
      [join(outside, 'secret.jsonl'), 'FORBIDDEN'],
      [`link-${engine.name}.jsonl`, 'FORBIDDEN'],
      [`dir-${engine.name}/secret.jsonl`, 'FORBIDDEN'],
      [`binary-${engine.name}.jsonl`, 'INVALID_INPUT'],
      [`latin1-${engine.name}.jsonl`, 'INVALID_INPUT'],
      [`huge-${engine.name}.jsonl`, 'INVALID_INPUT'],
      ['missing.jsonl', 'NOT_FOUND'],
      ['.', 'INVALID_INPUT'],
      // The FIFO case needs mkfifo (the skipped case below says when it is missing).
      ...(fifo ? [[fifo, 'INVALID_INPUT'] as [string, string]] : []),
    ];
    for (const [path, code] of cases) {
      const result = await importTool({ userId: 'dora', path });
      expect([result.isError, result.body.error?.code, result.body.error?.data?.field], path).toEqual([true, code, 'path']);
    }
    expect(body(await exportOf('dora'))).toBe('');
  });

  if (!FIFO_AVAILABLE) it.skip('refuses a FIFO (skipped: mkfifo is not available here, so the case above has no FIFO)', () => {});
});
