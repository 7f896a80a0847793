import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '@memsvc/config';
import { toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { httpConfigs, MCP_URL_PLACEHOLDER, stdioConfigs } from '../src/pages/access/agent-configs.js';
import { ConnectAgentSection } from '../src/pages/access/connect-agent-section.js';

const configOf = (env: Record<string, string>) => loadConfig({ EMBEDDING_PROVIDER: 'local', ...env }, { homeDir: process.cwd() }).config;

/** "Connect an agent": what each client is told, and that no secret of the server's configuration ever reaches the page. */
describe('the agent configurations of the access page', () => {
  it('never prints the database password or the OpenAI key; the tenant is the viewer', () => {
    const config = configOf({
      DATABASE_URL: 'postgres://memsvc:hunter2-db-password@db.internal:5432/memsvc',
      EMBEDDING_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-a-real-looking-openai-key',
    });
    const texts = stdioConfigs(config, toTenantId('alice@example.com')).map((entry) => entry.text);
    for (const text of texts) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('sk-a-real');
    }
    const desktop = JSON.parse(texts[2] ?? '');
    expect(desktop.mcpServers.memsvc).toEqual({
      command: 'memsvc-server',
      args: [],
      env: {
        DATABASE_URL: 'postgres://memsvc:*****@db.internal:5432/memsvc',
        DEPLOYMENT_PROFILE: 'standard',
        EMBEDDING_PROVIDER: 'openai',
        EMBEDDING_MODEL: 'text-embedding-3-small',
        OPENAI_API_KEY: '<your-openai-key>',
        MEMSVC_DEFAULT_USER_ID: 'alice@example.com',
        HOST: '127.0.0.1',
      },
    });
    // Quoted where a shell would read a character (the mask's * would glob, < would redirect).
    expect(texts[0]).toBe(
      "claude mcp add --transport stdio memsvc --env 'DATABASE_URL=postgres://memsvc:*****@db.internal:5432/memsvc' " +
        '--env DEPLOYMENT_PROFILE=standard --env EMBEDDING_PROVIDER=openai --env EMBEDDING_MODEL=text-embedding-3-small ' +
        "--env 'OPENAI_API_KEY=<your-openai-key>' --env MEMSVC_DEFAULT_USER_ID=alice@example.com --env HOST=127.0.0.1 -- memsvc-server",
    );
  });

  it('sends the key as a bearer header in every HTTP configuration; mcp-remote is allowed plain HTTP only off this machine', () => {
    const configs = httpConfigs('http://memory.lan:3000/mcp', 'msk_example');
    for (const config of configs) expect(config.text).toContain('Bearer msk_example');
    expect(JSON.parse(configs[2]?.text ?? '').mcpServers.memsvc.args).toEqual([
      '-y',
      'mcp-remote',
      'http://memory.lan:3000/mcp',
      '--header',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote's own placeholder, expanded from its env.
      'Authorization:${AUTH_HEADER}',
      '--allow-http',
    ]);
    expect(httpConfigs('http://127.0.0.1:3000/mcp')[2]?.text).not.toContain('--allow-http');
    // A server that asks for no credential: no header anywhere, and no env for mcp-remote.
    for (const entry of httpConfigs('http://127.0.0.1:3000/mcp', null)) expect(entry.text).not.toMatch(/Authorization|Bearer|AUTH_HEADER/);
    expect(httpConfigs("https://h/mcp?x='y'")[0]?.text).toContain(`'https://h/mcp?x='\\''y'\\'''`);
  });

  it('explains how to set MEMSVC_MCP_URL when it is unset, and shows a placeholder instead of guessing', async () => {
    const config = configOf({ DATABASE_URL: 'pglite://memory' });
    const html = String(
      await ConnectAgentSection({
        settings: {
          mcpAddress: undefined,
          credential: 'per-agent-key',
          http: httpConfigs(MCP_URL_PLACEHOLDER),
          stdio: stdioConfigs(config, toTenantId('dev')),
          databaseUrlMasked: false,
          embeddedDatabase: true,
          serverOnPath: true,
        },
      }),
    );
    expect(html).toContain('<code>MEMSVC_MCP_URL</code> is not set');
    expect(html).toContain('https://&lt;memsvc-host&gt;/mcp');
    expect(html).toContain('any number of agents open it over stdio');
    expect(html).toContain('npm i -g memsvc');
  });

  it("starts this installation's memsvc-server by absolute path, on the embedded directory made absolute", () => {
    // A desktop client starts the server in a folder of its own: a relative directory there would be a new, empty database.
    const config = loadConfig({ EMBEDDING_PROVIDER: 'local', DATABASE_URL: 'pglite://./.memsvc-data' }, { homeDir: '/home/ada' }).config;
    const server = { command: '/opt/node/bin/node', args: ['/opt/memsvc/apps/server/dist/memsvc-server.js'] };
    const [command, claudeCode, desktop, cursor] = stdioConfigs(config, toTenantId('me'), server);
    const expected = {
      command: server.command,
      args: server.args,
      env: expect.objectContaining({ DATABASE_URL: `pglite://${resolve('.memsvc-data')}` }),
    };
    expect(JSON.parse(desktop?.text ?? '').mcpServers.memsvc).toEqual(expected);
    expect(JSON.parse(cursor?.text ?? '').mcpServers.memsvc).toEqual(expected);
    expect(JSON.parse(claudeCode?.text ?? '').mcpServers.memsvc).toEqual({ type: 'stdio', ...expected });
    expect(command?.text).toMatch(/ -- \/opt\/node\/bin\/node \/opt\/memsvc\/apps\/server\/dist\/memsvc-server\.js$/);
    expect(command?.text).toContain(`DATABASE_URL=pglite://${resolve('.memsvc-data')}`);

    const home = stdioConfigs(configOf({ DATABASE_URL: 'pglite://~/.memsvc' }), toTenantId('me'), server);
    expect(JSON.parse(home[2]?.text ?? '').mcpServers.memsvc.env.DATABASE_URL).toBe(`pglite://${join(homedir(), '.memsvc')}`);
  });
});
