// What prom-client gets in the apps' bundles where it asks for @opentelemetry/api. It reads the
// active span only to attach exemplars to its process CPU counter, and memsvc never enables
// exemplars; the real API would be loaded at every start although tracing is off (spec §2.5:
// without OTEL_EXPORTER_OTLP_ENDPOINT not one module of OpenTelemetry is loaded).
module.exports = {
  context: { active: () => undefined },
  trace: { getSpan: () => undefined },
};
