import { type AgentConfig, KEY_FROM_ENVIRONMENT } from './agent-configs.js';
import type { McpAddressSource } from './mcp-address.js';

/** One configuration to copy: where it goes, then its text in a <pre>, as text. */
export function ConfigBlock(props: { config: AgentConfig; idPrefix: string }) {
  const { config } = props;
  const id = `${props.idPrefix}-${config.id}`;
  return (
    <figure class="config">
      <figcaption>
        {config.client}: {config.where === 'a terminal' ? 'in a terminal' : <code>{config.where}</code>}
      </figcaption>
      <pre id={id}>
        <code>{config.text}</code>
      </pre>
    </figure>
  );
}

/** What the page knows about reaching this server, for "Connect an agent". */
export interface ConnectSettings {
  /** The MCP endpoint, when the page knows it (mcp-address.ts). */
  readonly mcpAddress: { readonly url: string; readonly source: McpAddressSource } | undefined;
  /**
   * What an agent sends: its own API key (standard), the server's pre-shared MEMSVC_API_KEY (lite
   * with AUTH_REQUIRED), or nothing (lite without).
   */
  readonly credential: 'per-agent-key' | 'shared-key' | 'none';
  readonly http: readonly AgentConfig[];
  readonly stdio: readonly AgentConfig[];
  readonly databaseUrlMasked: boolean;
  readonly embeddedDatabase: boolean;
  /** The stdio configurations name `memsvc-server` on PATH: this process did not say where its own is. */
  readonly serverOnPath: boolean;
}

/**
 * "Connect an agent": configurations for Claude Code, Claude Desktop and Cursor, over streamable
 * HTTP with an API key, or over stdio on the database itself. Never a real secret: a key is a
 * placeholder here (the page that creates one offers the filled-in versions), a database
 * password is masked.
 */
export function ConnectAgentSection(props: { settings: ConnectSettings }) {
  const { settings } = props;
  return (
    <section aria-labelledby="connect-title" class="connect">
      <h2 id="connect-title">Connect an agent</h2>
      <h3>{settings.credential === 'none' ? 'Over streamable HTTP' : 'Over streamable HTTP, with a key'}</h3>
      {settings.mcpAddress ? (
        <p>
          Agents reach this server's MCP endpoint at <code class="mcp-url">{settings.mcpAddress.url}</code>
          {settings.mcpAddress.source === 'configured' ? (
            <>
              {' '}
              (<code>MEMSVC_MCP_URL</code>)
            </>
          ) : (
            ': the address this page was reached at. Agents on other machines need the address they reach this one by'
          )}
          . <CredentialWords credential={settings.credential} />
        </p>
      ) : (
        <p class="notice error" role="note">
          <code>MEMSVC_MCP_URL</code> is not set, so this page does not know the address agents reach the MCP endpoint at. Set it where the
          dashboard runs to the public URL of the server's <code>/mcp</code> (for example <code>https://memory.example.com/mcp</code>) and
          restart; until then the configurations show <code>https://&lt;memsvc-host&gt;/mcp</code>.
        </p>
      )}
      {settings.credential === 'none' ? null : (
        <p>
          <small>
            A project's <code>.mcp.json</code> is often committed: keep the key out of it with <code>"{KEY_FROM_ENVIRONMENT}"</code>, which
            Claude Code reads from the environment. Claude Desktop reaches HTTP servers through <code>mcp-remote</code>.
          </small>
        </p>
      )}
      <div class="configs">
        {settings.http.map((config) => (
          <ConfigBlock config={config} idPrefix="connect" />
        ))}
      </div>
      {settings.stdio.length > 0 ? (
        <>
          <h3>Over stdio, on the database</h3>
          <p>
            The client starts <code>memsvc-server</code> itself, which opens the database directly and asks for no key: this is for someone
            who holds the database's credentials. It acts as you (<code>MEMSVC_DEFAULT_USER_ID</code>) with the same embedding settings as
            this server.
            {settings.databaseUrlMasked ? (
              <>
                {' '}
                The password in <code>DATABASE_URL</code> is masked as <code>*****</code>: put it back.
              </>
            ) : null}
            {settings.embeddedDatabase ? (
              <>
                {' '}
                The database is embedded (<code>pglite://</code>, named by its absolute directory): any number of agents open it over stdio
                beside this server, sharing one memory.
              </>
            ) : null}
            {settings.serverOnPath ? (
              <>
                {' '}
                These start <code>memsvc-server</code> from your <code>PATH</code>: install it with <code>npm i -g memsvc</code>, or replace
                it with <code>node</code> and the path of <code>apps/server/dist/memsvc-server.js</code> in a checkout.
              </>
            ) : null}
          </p>
          <div class="configs">
            {settings.stdio.map((config) => (
              <ConfigBlock config={config} idPrefix="connect" />
            ))}
          </div>
        </>
      ) : (
        <p>
          An agent can also start <code>memsvc-server</code> itself over stdio, opening the database directly; that configuration holds the
          database's address, so an operator (the <code>admin</code> scope) sees it here.
        </p>
      )}
    </section>
  );
}

/** What an agent sends with each call, in words. */
function CredentialWords(props: { credential: ConnectSettings['credential'] }) {
  if (props.credential === 'none') {
    return <>This lite server asks for no key (AUTH_REQUIRED is off): every call acts as its one user.</>;
  }
  if (props.credential === 'shared-key') {
    return (
      <>
        Each sends the server's pre-shared key as <code>Authorization: Bearer &lt;key&gt;</code>: replace{' '}
        <code>&lt;MEMSVC_API_KEY&gt;</code> with the value of <code>MEMSVC_API_KEY</code> where the server runs (the lite profile has no
        per-agent keys).
      </>
    );
  }
  return (
    <>
      Each sends its own key as <code>Authorization: Bearer &lt;key&gt;</code>: replace <code>&lt;your-api-key&gt;</code> with a key made
      above.
    </>
  );
}
