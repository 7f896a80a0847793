import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Secret } from '@memsvc/access';
import { bearerToken, secretMatches } from '@memsvc/auth';
import { httpStatusOf, type Metrics } from '@memsvc/runtime';
import type { MemsvcStore } from '@memsvc/store-pg';

/**
 * The worker's own small HTTP surface, so a standalone worker can be probed and scraped like the
 * server: `GET /health` (200 when the database and pgvector answer, else 503) and
 * `GET /health/metrics` (Prometheus text; a bearer token when METRICS_TOKEN is set). The job
 * counters of spec §4.2 — promotions, consolidation runs, reindex operations — count here when
 * the jobs run in a worker.
 */
export async function serveWorkerHttp(options: {
  port: number;
  host: string;
  store: MemsvcStore;
  metrics: Metrics;
  metricsToken: Secret | undefined;
}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'Content-Type': type });
      response.end(body);
    };
    // 405 and the health 503 are HTTP's and the probe protocol's rules, not an error code's.
    if (request.method !== 'GET') return send(405, 'application/json', JSON.stringify({ error: { code: 'METHOD_NOT_ALLOWED' } }));
    if (path === '/health') {
      void options.store.health().then((health) => {
        const up = health.database && health.pgvector;
        send(up ? 200 : 503, 'application/json', JSON.stringify({ status: up ? 'up' : 'down', component: 'worker', ...health }));
      });
      return;
    }
    if (path === '/health/metrics') {
      if (options.metricsToken) {
        const token = bearerToken(request.headers.authorization);
        if (!secretMatches(options.metricsToken, token)) {
          return send(
            httpStatusOf('UNAUTHENTICATED'),
            'application/json',
            JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'a valid bearer token is required' } }),
          );
        }
      }
      void options.metrics.registry.metrics().then((text) => send(200, options.metrics.registry.contentType, text));
      return;
    }
    send(httpStatusOf('NOT_FOUND'), 'application/json', JSON.stringify({ error: { code: 'NOT_FOUND' } }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection would otherwise hold close() until it times out.
        server.closeIdleConnections();
      }),
  };
}
