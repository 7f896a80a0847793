import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics, registerEmbeddingMetrics, registerReplicaMetrics } from '../src/index.js';

const monitoring = new URL('../../../deploy/monitoring/', import.meta.url);
const alerts = readFileSync(new URL('memsvc-alerts.yml', monitoring), 'utf8');
const dashboard = readFileSync(new URL('memsvc-grafana-dashboard.json', monitoring), 'utf8');

/** Every metric name memsvc registers (a histogram's series add _bucket, _sum and _count). */
function emittedNames(): Set<string> {
  const metrics = createMetrics('standard', async () => true);
  registerEmbeddingMetrics(metrics.registry);
  registerReplicaMetrics(metrics.registry, () => undefined);
  return new Set(metrics.registry.getMetricsAsArray().map((metric) => metric.name));
}

const referenced = (text: string) =>
  [...new Set(text.match(/memsvc_[a-z_]+/g) ?? [])].map((name) => name.replace(/_(bucket|sum|count)$/, ''));

describe('the monitoring files in deploy/monitoring', () => {
  it('name only memsvc metrics that exist', () => {
    const emitted = emittedNames();
    const named = [...referenced(alerts), ...referenced(dashboard)];
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !emitted.has(name))).toEqual([]);
  });

  it('give every alert an expression and a summary, and the dashboard valid panels', () => {
    const rules = alerts.split(/\n\s*- alert: /).slice(1);
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const rule of rules) {
      expect(rule, rule.split('\n')[0]).toMatch(/\n\s+expr: /);
      expect(rule, rule.split('\n')[0]).toMatch(/\n\s+summary: /);
    }
    const parsed = JSON.parse(dashboard) as { panels: { title: string; targets: { expr: string }[] }[] };
    expect(parsed.panels.length).toBeGreaterThan(8);
    for (const panel of parsed.panels) expect(panel.targets.length, panel.title).toBeGreaterThan(0);
  });
});
