/** One sample of a prom-client histogram's `get()`: a bucket, the sum or the count, with its labels. */
export interface HistogramSample {
  readonly labels: Readonly<Record<string, string | number | undefined>>;
  readonly value: number;
  readonly metricName?: string | undefined;
}

/** A tool's latency from the histogram's buckets since the process started. */
export interface ToolLatency {
  readonly tool: string;
  readonly calls: number;
  /** Seconds; `above` when the quantile lies past the last finite bucket (it is at least `seconds`). */
  readonly p50: Quantile;
  readonly p95: Quantile;
}

/** A latency quantile in seconds. */
export interface Quantile {
  readonly seconds: number;
  readonly above: boolean;
}

/**
 * P50 and P95 per tool from a histogram's cumulative buckets, the way Prometheus's
 * histogram_quantile estimates them: find the bucket holding the rank, interpolate linearly
 * inside it. The buckets of one tool's label sets (its tiers) are added up first. Tools with no
 * call are left out; the result is sorted by tool.
 */
export function toolLatencies(samples: readonly HistogramSample[], toolLabel: string): ToolLatency[] {
  const buckets = new Map<string, Map<number, number>>();
  for (const sample of samples) {
    const le = sample.labels.le;
    const tool = sample.labels[toolLabel];
    if (le === undefined || tool === undefined || (sample.metricName !== undefined && !sample.metricName.endsWith('_bucket'))) continue;
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    if (Number.isNaN(bound)) continue;
    const tools = buckets.get(String(tool)) ?? new Map<number, number>();
    tools.set(bound, (tools.get(bound) ?? 0) + sample.value);
    buckets.set(String(tool), tools);
  }
  const latencies: ToolLatency[] = [];
  for (const [tool, byBound] of buckets) {
    const cumulative = [...byBound].sort(([a], [b]) => a - b);
    const calls = cumulative.at(-1)?.[1] ?? 0;
    if (calls === 0) continue;
    latencies.push({ tool, calls, p50: quantile(cumulative, calls, 0.5), p95: quantile(cumulative, calls, 0.95) });
  }
  return latencies.sort((a, b) => a.tool.localeCompare(b.tool));
}

function quantile(cumulative: readonly (readonly [number, number])[], calls: number, q: number): Quantile {
  const rank = q * calls;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [bound, count] of cumulative) {
    if (count >= rank && count > lowerCount) {
      if (bound === Number.POSITIVE_INFINITY) return { seconds: lowerBound, above: true };
      return { seconds: lowerBound + ((bound - lowerBound) * (rank - lowerCount)) / (count - lowerCount), above: false };
    }
    if (bound !== Number.POSITIVE_INFINITY) lowerBound = bound;
    lowerCount = count;
  }
  return { seconds: lowerBound, above: true };
}

/** A latency as people read it: `3.2 ms`, `1.25 s`, `> 2.5 s`. */
export function formatQuantile(value: Quantile): string {
  const ms = value.seconds * 1000;
  const text = ms < 10 ? `${ms.toFixed(1)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${value.seconds.toFixed(2)} s`;
  return value.above ? `> ${text}` : text;
}
