import type { Timers } from '@memsvc/core';
import type { EmbeddingProbe } from '@memsvc/embeddings';
import type { Logger } from './logger.js';

/**
 * How often the provider is asked again while it is down or its circuit is open. Shorter than
 * the circuit's cooldown (DEFAULT_RESILIENCE, 30 s): each failed probe opens it for a fresh
 * cooldown, so the circuit never half-opens for a write while the provider stays down, and the
 * writes never wait for it.
 */
export const EMBEDDING_RECHECK_MS = 15_000;

/** An embedder that can be asked whether its provider answers (ResilientEmbedder). */
export interface ProbedEmbedder {
  probe(): Promise<EmbeddingProbe>;
  readonly circuitOpen: boolean;
}

/** The `embeddings` indicator of /health: not one of spec §4.1's three, so it never fails the report. */
export interface EmbeddingsIndicator {
  status: 'up' | 'down';
  provider: string;
  model: string | undefined;
  /** False until the first probe has answered. */
  checked: boolean;
  /** What happens while it is down: fixed words, /health is public (the log names the URL and the cause). */
  error?: string;
}

export interface EmbeddingReachabilityOptions {
  readonly embedder: ProbedEmbedder;
  readonly provider: 'ollama' | 'openai';
  readonly model: string | undefined;
  /** Where the provider lives, for the log line (never shown on /health). */
  readonly url: string;
  readonly logger: Logger;
  readonly timers: Timers;
  readonly recheckMs?: number;
}

const WHILE_DOWN = 'memories are stored without vectors and recall uses full text only until it answers';

/**
 * Watches an HTTP embedding provider: asks it at boot, says once in the log when it cannot be
 * reached (and again when it answers), keeps its circuit open while it is down so that writes do
 * not wait for it, and tells /health what it found.
 */
export class EmbeddingReachability {
  #reachable: boolean | undefined;
  #problem: string | undefined;
  #timer: ReturnType<Timers['setTimeout']> | undefined;
  #stopped = false;
  #checking: Promise<void> | undefined;

  constructor(private readonly options: EmbeddingReachabilityOptions) {}

  /** Probes now, then every recheckMs while the provider is down or its circuit is open. */
  start(): Promise<void> {
    return this.check();
  }

  /** Stops the rechecks. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The /health indicator. */
  indicator(): EmbeddingsIndicator {
    const { provider, model } = this.options;
    const down = this.#reachable === false || this.options.embedder.circuitOpen;
    if (down) return { status: 'down', provider, model, checked: true, error: `not reachable: ${WHILE_DOWN}` };
    if (this.#problem !== undefined) return { status: 'down', provider, model, checked: true, error: 'answers with an error: see the log' };
    return { status: 'up', provider, model, checked: this.#reachable !== undefined };
  }

  /** One probe (shared with one in flight), its change logged, the next one scheduled. */
  check(): Promise<void> {
    this.#checking ??= this.probeOnce().finally(() => {
      this.#checking = undefined;
      this.schedule();
    });
    return this.#checking;
  }

  private async probeOnce(): Promise<void> {
    // While the circuit is closed and the last probe found it up, the writes' own requests watch it.
    if (this.#reachable === true && this.#problem === undefined && !this.options.embedder.circuitOpen) return;
    const { provider, logger } = this.options;
    const url = withoutCredentials(this.options.url);
    const found = await this.options.embedder.probe();
    const was = this.#reachable;
    const wasProblem = this.#problem;
    this.#reachable = found.reachable;
    this.#problem = found.reachable ? found.error : undefined;
    if (!found.reachable && was !== false) {
      logger.warn(
        { provider, url, error: found.error },
        `embedding provider ${provider} at ${url} cannot be reached: ${WHILE_DOWN} (asking again every ${Math.round(this.recheckMs / 1000)} s)`,
      );
    } else if (found.reachable && found.error !== undefined && found.error !== wasProblem) {
      logger.warn({ provider, url, error: found.error }, `embedding provider ${provider} at ${url} answers with an error: ${found.error}`);
    } else if (found.reachable && found.error === undefined && (was === false || wasProblem !== undefined)) {
      logger.info(
        { provider, url },
        `embedding provider ${provider} at ${url} answers again: new memories get vectors (memsvc-reindex adds them to those stored meanwhile)`,
      );
    }
  }

  private schedule(): void {
    if (this.#stopped) return;
    this.#timer = this.options.timers.setTimeout(() => {
      this.#timer = undefined;
      void this.check();
    }, this.recheckMs);
    // A server or worker keeps running for its own reasons; this timer is no reason to.
    this.#timer.unref?.();
  }

  private get recheckMs(): number {
    return this.options.recheckMs ?? EMBEDDING_RECHECK_MS;
  }
}

/** The URL as the log may show it: a user name or password in OLLAMA_URL never reaches it. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.origin + (parsed.pathname === '/' ? '' : parsed.pathname);
  } catch {
    return '(an invalid URL)';
  }
}
