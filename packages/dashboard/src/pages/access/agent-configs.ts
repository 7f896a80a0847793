import { redactDatabaseUrl } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import type { TenantId } from '@memsvc/core';
import { embeddedDirectory } from '@memsvc/store-pg';
import type { StdioServerCommand } from '../../dashboard-dependencies.js';

/** The server's name in every client's configuration. */
const SERVER_NAME = 'memsvc';
/** What stands for a key wherever the page shows a configuration without one. */
export const KEY_PLACEHOLDER = '<your-api-key>';
/** A header value that keeps the key out of a committed `.mcp.json`: Claude Code expands it from the environment. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the client expands ${MEMSVC_API_KEY}, not this code.
export const KEY_FROM_ENVIRONMENT = 'Bearer ${MEMSVC_API_KEY}';
/** What stands for the MCP endpoint while MEMSVC_MCP_URL is unset. */
export const MCP_URL_PLACEHOLDER = 'https://<memsvc-host>/mcp';
/** What stands for a secret of the server's own configuration (never printed). */
const SECRET_PLACEHOLDER = '<your-openai-key>';

/** One client configuration to copy: what it is for, where it goes, and its text. */
export interface AgentConfig {
  readonly id: string;
  readonly client: 'Claude Code' | 'Claude Desktop' | 'Cursor';
  readonly where: string;
  readonly text: string;
}

/** What stands for the pre-shared key of a lite server with AUTH_REQUIRED (MEMSVC_API_KEY), which the page never prints. */
export const SHARED_KEY_PLACEHOLDER = '<MEMSVC_API_KEY>';

/**
 * Client configurations for the MCP endpoint over streamable HTTP, each sending the key as
 * `Authorization: Bearer`, or no header at all when `key` is null (a server that asks for no
 * credential). Claude Desktop's configuration file starts stdio servers only, so it reaches an
 * HTTP endpoint through `mcp-remote` (the header kept in an env variable, because Claude Desktop
 * on Windows does not quote arguments that hold spaces).
 */
export function httpConfigs(mcpUrl: string, key: string | null = KEY_PLACEHOLDER): AgentConfig[] {
  const bearer = key === null ? undefined : `Bearer ${key}`;
  const headers = bearer === undefined ? {} : { headers: { Authorization: bearer } };
  // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote expands ${AUTH_HEADER} from its env itself.
  const remoteArgs = ['-y', 'mcp-remote', mcpUrl, ...(bearer === undefined ? [] : ['--header', 'Authorization:${AUTH_HEADER}'])];
  if (needsAllowHttp(mcpUrl)) remoteArgs.push('--allow-http');
  return [
    {
      id: 'http-claude-code-command',
      client: 'Claude Code',
      where: 'a terminal',
      text: shellCommand([
        'claude',
        'mcp',
        'add',
        '--transport',
        'http',
        SERVER_NAME,
        mcpUrl,
        ...(bearer === undefined ? [] : ['--header', `Authorization: ${bearer}`]),
      ]),
    },
    {
      id: 'http-claude-code-json',
      client: 'Claude Code',
      where: '.mcp.json',
      text: mcpServersJson({ type: 'http', url: mcpUrl, ...headers }),
    },
    {
      id: 'http-claude-desktop',
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json',
      text: mcpServersJson({ command: 'npx', args: remoteArgs, ...(bearer === undefined ? {} : { env: { AUTH_HEADER: bearer } }) }),
    },
    {
      id: 'http-cursor',
      client: 'Cursor',
      where: '.cursor/mcp.json',
      text: mcpServersJson({ url: mcpUrl, ...headers }),
    },
  ];
}

/** Without this installation's own path, the command a global install (`npm i -g memsvc`) puts on PATH. */
export const INSTALLED_SERVER: StdioServerCommand = { command: 'memsvc-server', args: [] };

/**
 * Client configurations that start memsvc-server (`server`: this installation's, by absolute
 * path) over stdio on this server's database and embedding settings, acting as `tenant`. No key:
 * over stdio the client starts the server itself and whoever holds the database's credentials
 * needs none. An embedded database is named by its absolute directory: a client starts the server
 * in a folder of its own, where a relative one would silently make a new, empty database. Secrets
 * of the server's configuration are never printed: URLs are shown with their passwords masked
 * (`*****`), the OpenAI key as a placeholder.
 */
export function stdioConfigs(config: MemsvcConfig, tenant: TenantId, server: StdioServerCommand = INSTALLED_SERVER): AgentConfig[] {
  const env = stdioEnv(config, tenant);
  const { command } = server;
  const args = [...server.args];
  return [
    {
      id: 'stdio-claude-code-command',
      client: 'Claude Code',
      where: 'a terminal',
      text: shellCommand([
        'claude',
        'mcp',
        'add',
        '--transport',
        'stdio',
        SERVER_NAME,
        ...Object.entries(env).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
        '--',
        command,
        ...args,
      ]),
    },
    {
      id: 'stdio-claude-code-json',
      client: 'Claude Code',
      where: '.mcp.json',
      text: mcpServersJson({ type: 'stdio', command, args, env }),
    },
    {
      id: 'stdio-claude-desktop',
      client: 'Claude Desktop',
      where: 'claude_desktop_config.json',
      text: mcpServersJson({ command, args, env }),
    },
    { id: 'stdio-cursor', client: 'Cursor', where: '.cursor/mcp.json', text: mcpServersJson({ command, args, env }) },
  ];
}

/** The variables a stdio server needs to open the same database and embed the same way as this one. */
function stdioEnv(config: MemsvcConfig, tenant: TenantId): Record<string, string> {
  const { embedding } = config;
  return {
    DATABASE_URL: databaseUrlForClients(config),
    DEPLOYMENT_PROFILE: config.profile,
    EMBEDDING_PROVIDER: embedding.provider,
    ...(embedding.model === undefined ? {} : { EMBEDDING_MODEL: embedding.model }),
    ...(embedding.dimensions === undefined ? {} : { VECTOR_DIMENSIONS: String(embedding.dimensions) }),
    ...(embedding.provider === 'ollama' ? { OLLAMA_URL: redactDatabaseUrl(embedding.ollamaUrl) } : {}),
    ...(embedding.provider === 'openai' ? { OPENAI_API_KEY: SECRET_PLACEHOLDER } : {}),
    MEMSVC_DEFAULT_USER_ID: tenant,
    // A stdio server still answers /health on PORT, on every interface unless HOST says otherwise.
    HOST: '127.0.0.1',
  };
}

/** The database's URL as another process must write it: an embedded directory absolute, a password masked. */
function databaseUrlForClients(config: MemsvcConfig): string {
  const { target } = config.database;
  if (target.engine === 'pglite' && target.storage === 'directory') return `pglite://${embeddedDirectory(target.directory)}`;
  return config.database.displayUrl;
}

/** Whether the database URL shown hides a password the person must put back. */
export function databaseUrlIsMasked(config: MemsvcConfig): boolean {
  return config.database.displayUrl.includes('*****');
}

function mcpServersJson(server: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: { [SERVER_NAME]: server } }, null, 2);
}

/** mcp-remote refuses a plain-HTTP URL unless it is on this machine or `--allow-http` says so. */
function needsAllowHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}

/** A POSIX shell command line: each word left bare when it is safe, else single-quoted. */
function shellCommand(words: readonly string[]): string {
  return words.map((word) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}
