/** `memsvc-server --help`: what it runs, where its configuration comes from, and how people start it. */
export const SERVER_HELP = `Usage: memsvc-server [--help] [--version]

Runs the memsvc MCP server: over stdio (the default: an MCP client starts it and talks on its
stdin and stdout) or over streamable HTTP at /mcp, with /health and /health/metrics beside it.
Every setting comes from the environment (docs/configuration.md): DATABASE_URL is required;
a value that is refused stops the server with exit code 2 and a message naming the variable.

Examples:
  # Over stdio on an embedded database in a directory (what an MCP client's config runs):
  DATABASE_URL=pglite://~/.memsvc DEPLOYMENT_PROFILE=lite EMBEDDING_PROVIDER=local HOST=127.0.0.1 memsvc-server

  # Over HTTP on PostgreSQL with pgvector, agents sending their own API keys:
  DATABASE_URL=postgres://memsvc:secret@localhost:5432/memsvc MCP_TRANSPORT=streamable-http \\
    AUTH_REQUIRED=true JWT_SECRET=<32+ characters> memsvc-server

  # An API key for an agent (printed once), then check the server:
  DATABASE_URL=postgres://memsvc:secret@localhost:5432/memsvc memsvc keys create --user alice --name laptop
  curl http://127.0.0.1:3000/health

Options:
  -h, --help     show this help
  -v, --version  print the version

Embeddings: EMBEDDING_PROVIDER is ollama (the default, at OLLAMA_URL, http://localhost:11434),
openai, local (word hashing, no model) or disabled. When the provider cannot be reached, memories
are stored without vectors and found by full text until it answers.
`;
