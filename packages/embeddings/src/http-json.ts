import { EmbeddingRequestError } from './embedding-backend.js';

/**
 * POSTs JSON and returns the parsed JSON reply of a 2xx response. Every failure becomes an
 * EmbeddingRequestError that says whether a retry can help and never carries request headers
 * (they hold the API key).
 */
export async function postJson(
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; signal: AbortSignal; describeError?: (reply: unknown) => string | undefined },
): Promise<unknown> {
  const shown = withoutCredentials(url);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    const timedOut = options.signal.aborted;
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new EmbeddingRequestError(timedOut ? `no reply from ${shown} in time` : `cannot reach ${shown}${cause}`, true);
  }
  const text = await response.text().catch(() => '');
  let reply: unknown;
  try {
    reply = text ? JSON.parse(text) : undefined;
  } catch {
    reply = undefined;
  }
  if (!response.ok) {
    const detail = options.describeError?.(reply) ?? text.slice(0, 200);
    const retryable = response.status === 429 || response.status >= 500;
    throw new EmbeddingRequestError(`${shown} answered ${response.status}${detail ? `: ${detail}` : ''}`, retryable, response.status);
  }
  if (reply === undefined) throw new EmbeddingRequestError(`${shown} answered with a body that is not JSON`, false, response.status);
  return reply;
}

/** The URL as an error may show it: a user name or password in it never reaches a log. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(an invalid URL)';
  }
}

/** A reply's field as an array of number arrays, or a clear non-retryable error. */
export function asVectors(value: unknown, what: string): number[][] {
  if (
    !Array.isArray(value) ||
    !value.every((vector) => Array.isArray(vector) && vector.every((x) => typeof x === 'number' && Number.isFinite(x)))
  ) {
    throw new EmbeddingRequestError(`${what} is not a list of numeric vectors`, false);
  }
  return value as number[][];
}
