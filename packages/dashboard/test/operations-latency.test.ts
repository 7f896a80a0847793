import { describe, expect, it } from 'vitest';
import { niceMax } from '../src/pages/operations/charts.js';
import { formatQuantile, type HistogramSample, toolLatencies } from '../src/pages/operations/latency-quantiles.js';

/** A histogram's samples as prom-client's get() gives them: cumulative buckets, then sum and count. */
function samples(op: string, tier: string, buckets: Readonly<Record<string, number>>): HistogramSample[] {
  const count = buckets['+Inf'] ?? 0;
  return [
    ...Object.entries(buckets).map(([le, value]) => ({ labels: { op, tier, le }, value, metricName: 'latency_seconds_bucket' })),
    { labels: { op, tier }, value: count * 0.1, metricName: 'latency_seconds_sum' },
    { labels: { op, tier }, value: count, metricName: 'latency_seconds_count' },
  ];
}

describe('tool latency from histogram buckets (the operations page)', () => {
  it('adds up a tool’s tiers and interpolates inside the bucket holding the rank, as histogram_quantile does', () => {
    const latencies = toolLatencies(
      [
        ...samples('recall', 'ltm', { '0.01': 40, '0.1': 80, '1': 80, '+Inf': 80 }),
        ...samples('recall', 'stm', { '0.01': 0, '0.1': 10, '1': 20, '+Inf': 20 }),
        ...samples('update', 'ltm', { '0.01': 0, '0.1': 0, '1': 0, '+Inf': 0 }),
      ],
      'op',
    );
    // 100 calls: 40 ≤ 10 ms, 50 in (10 ms, 100 ms], 10 in (100 ms, 1 s]. Update was never called.
    expect(latencies).toHaveLength(1);
    const [recall] = latencies;
    expect(recall?.tool).toBe('recall');
    expect(recall?.calls).toBe(100);
    expect(recall?.p50.seconds).toBeCloseTo(0.01 + 0.09 * (10 / 50), 10);
    expect(recall?.p95.seconds).toBeCloseTo(0.1 + 0.9 * (5 / 10), 10);
    expect([recall?.p50.above, recall?.p95.above]).toEqual([false, false]);
  });

  it('reports a quantile past the last finite bucket as at least that bound', () => {
    const [slow] = toolLatencies(samples('export', 'none', { '0.5': 1, '2.5': 1, '+Inf': 4 }), 'op');
    expect(slow?.p50).toEqual({ seconds: 2.5, above: true });
    expect(formatQuantile(slow?.p50 ?? { seconds: 0, above: false })).toBe('> 2.50 s');
    expect(toolLatencies([], 'op')).toEqual([]);
  });

  it('formats latencies for people and rounds chart axes up to 1, 2 or 5 times a power of ten', () => {
    expect(formatQuantile({ seconds: 0.0038, above: false })).toBe('3.8 ms');
    expect(formatQuantile({ seconds: 0.25, above: false })).toBe('250 ms');
    expect(formatQuantile({ seconds: 1.5, above: false })).toBe('1.50 s');
    expect([0, 1, 3, 61, 100, 101, 4999].map(niceMax)).toEqual([1, 1, 5, 100, 100, 200, 5000]);
  });
});
