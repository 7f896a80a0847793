import { type AgentConfig, KEY_FROM_ENVIRONMENT } from './agent-configs.js';

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
  /** MEMSVC_MCP_URL, when set. */
  readonly mcpUrl: string | undefined;
  readonly http: readonly AgentConfig[];
  readonly stdio: readonly AgentConfig[];
  readonly databaseUrlMasked: boolean;
  readonly embeddedDatabase: boolean;
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
      <h3>Over streamable HTTP, with an API key</h3>
      {settings.mcpUrl ? (
        <p>
          Agents reach this server's MCP endpoint at <code class="mcp-url">{settings.mcpUrl}</code> (<code>MEMSVC_MCP_URL</code>). Each
          sends its own key as <code>Authorization: Bearer &lt;key&gt;</code>: replace <code>&lt;your-api-key&gt;</code> with a key made
          above.
        </p>
      ) : (
        <p class="notice error" role="note">
          <code>MEMSVC_MCP_URL</code> is not set, so this page does not know the address agents reach the MCP endpoint at. Set it where the
          dashboard runs to the public URL of the server's <code>/mcp</code> (for example <code>https://memory.example.com/mcp</code>) and
          restart; until then the configurations show <code>https://&lt;memsvc-host&gt;/mcp</code>.
        </p>
      )}
      <p>
        <small>
          A project's <code>.mcp.json</code> is often committed: keep the key out of it with <code>"{KEY_FROM_ENVIRONMENT}"</code>, which
          Claude Code reads from the environment. Claude Desktop reaches HTTP servers through <code>mcp-remote</code>.
        </small>
      </p>
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
                This server's database is embedded (<code>pglite://</code>), and an embedded database belongs to one process: connect over
                HTTP while this server runs.
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
