import type { EmbeddingRequestEvent } from '@memsvc/embeddings';
import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * The embedding counters spec §4.2 emits "when the embeddings service is registered": the HTTP
 * providers (ollama, openai). The names are memsvc's own (the spec does not show them):
 * - memsvc_embedding_requests_total{provider, status}: status success, error (after retries)
 *   or short_circuited (refused while the circuit is open);
 * - memsvc_embedding_texts_total{provider, status}: texts in those requests;
 * - memsvc_embedding_request_duration_seconds{provider}: time per request, retries included.
 */
export function registerEmbeddingMetrics(registry: Registry): (event: EmbeddingRequestEvent) => void {
  const requests = new Counter({
    name: 'memsvc_embedding_requests_total',
    help: 'Embedding provider requests by outcome',
    labelNames: ['provider', 'status'],
    registers: [registry],
  });
  const texts = new Counter({
    name: 'memsvc_embedding_texts_total',
    help: 'Texts sent for embedding, by request outcome',
    labelNames: ['provider', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'memsvc_embedding_request_duration_seconds',
    help: 'Embedding request latency in seconds, retries included',
    labelNames: ['provider'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (event) => {
    requests.inc({ provider: event.provider, status: event.status });
    texts.inc({ provider: event.provider, status: event.status }, event.texts);
    if (event.status !== 'short_circuited') duration.observe({ provider: event.provider }, event.seconds);
  };
}
