import type { Embedder } from '../ports/embedder.js';
import type { SpanAttributes, Tracer } from '../ports/tracer.js';

/**
 * The stages a memory operation's span breaks into (spec §6 rule 2): `embed`, `database` and
 * `rank`, so a slow create or recall shows where its time went. A stage says how much it
 * handled, never what: no text, no query, no tenant.
 */

/** Vectors for texts, in an `embed` span that counts the texts and the vectors returned. */
export function embedInSpan(
  tracer: Tracer,
  embedder: Embedder,
  texts: readonly string[],
  purpose?: 'query',
): Promise<readonly (readonly number[])[] | undefined> {
  return tracer.inSpan('embed', { 'memsvc.embed.model': embedder.model, 'memsvc.embed.texts': texts.length }, async (span) => {
    const vectors = await (purpose ? embedder.embed(texts, purpose) : embedder.embed(texts));
    // No vectors is not an error: the provider is down or disabled, and the write goes on without.
    span.setAttributes({ 'memsvc.embed.vectors': vectors?.length ?? 0 });
    return vectors;
  });
}

/** One storage step (`memsvc.db.step` names it) in a `database` span; its statements nest inside. */
export function databaseStage<T>(tracer: Tracer, step: string, work: () => Promise<T>, attributes: SpanAttributes = {}): Promise<T> {
  return tracer.inSpan('database', { 'memsvc.db.step': step, ...attributes }, work);
}
