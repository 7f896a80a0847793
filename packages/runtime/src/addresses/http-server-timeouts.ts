/**
 * How long memsvc-server and memsvc-dashboard wait for a client to send a request (issue 37 #1).
 * Node's defaults give a request 300 s, checked every 30 s: a client that trickles its headers or
 * its body holds a connection, and its place among the server's sockets, for five minutes.
 */
export const HTTP_SERVER_TIMEOUTS = Object.freeze({
  /** All of a request's headers: far more than any client on any link needs for a few hundred bytes. */
  headersTimeoutMs: 20_000,
  /**
   * All of a request, body included: the largest /mcp body (4 MiB) arrives in this time at about
   * 300 kbit/s. It ends when the request has arrived; the work and the answer are not limited by it.
   */
  requestTimeoutMs: 120_000,
  /** How often Node looks for requests past either limit (its default, 30 s, would let them run over by that much). */
  connectionsCheckingIntervalMs: 5_000,
});

/** The options to create a Node HTTP server with (the checking interval can only be set there). */
export function httpServerOptions(): { connectionsCheckingInterval: number; headersTimeout: number; requestTimeout: number } {
  return {
    connectionsCheckingInterval: HTTP_SERVER_TIMEOUTS.connectionsCheckingIntervalMs,
    headersTimeout: HTTP_SERVER_TIMEOUTS.headersTimeoutMs,
    requestTimeout: HTTP_SERVER_TIMEOUTS.requestTimeoutMs,
  };
}
