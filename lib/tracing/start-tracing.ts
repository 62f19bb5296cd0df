import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import { logger } from "../log";
import { tracingConfig } from "./tracing-config";
import { tracing } from "./tracing-state";

type Sdk = {
  node: typeof import("@opentelemetry/sdk-trace-node");
  resources: typeof import("@opentelemetry/resources");
  otlp: typeof import("@opentelemetry/exporter-trace-otlp-http");
  api: typeof import("@opentelemetry/api");
};

/**
 * The SDK packages, loaded by Node's resolver at run time and only when tracing is on: out of the
 * bundlers' sight (neither bundle carries a copy; @opentelemetry/api is external to both), and a
 * process with tracing off never loads them.
 */
function loadSdk(): Sdk {
  const { createRequire } = process.getBuiltinModule("node:module");
  const load = createRequire(`${process.cwd()}/package.json`);
  return {
    node: load("@opentelemetry/sdk-trace-node"), resources: load("@opentelemetry/resources"),
    otlp: load("@opentelemetry/exporter-trace-otlp-http"), api: load("@opentelemetry/api"),
  };
}

/**
 * Sets up the tracer provider once per process, from the OTEL_* variables (lib/tracing/tracing-config.ts),
 * or with `exporter` given (tests: an InMemorySpanExporter, exported synchronously). Later calls
 * do nothing. With tracing off nothing is registered and `tracing.on` stays false. The provider is
 * registered globally (@opentelemetry/api, process-wide), with the AsyncLocalStorage context manager
 * so spans started below a request's span are its children. Sampler and batch settings are the
 * SDK's from OTEL_TRACES_SAMPLER(_ARG) and OTEL_BSP_*; the OTLP exporter reads OTEL_EXPORTER_OTLP_*.
 */
export function startTracing(options: { exporter?: SpanExporter; env?: Record<string, string | undefined> } = {}): void {
  if (tracing.started) return;
  tracing.started = true;
  const env = options.env ?? process.env;
  const cfg = tracingConfig(env);
  if (!cfg.exporter && !options.exporter) return;
  const sdk = loadSdk();
  const exporter = options.exporter
    ?? (cfg.exporter === "console" ? new sdk.node.ConsoleSpanExporter() : new sdk.otlp.OTLPTraceExporter());
  const processor = options.exporter ? new sdk.node.SimpleSpanProcessor(exporter) : new sdk.node.BatchSpanProcessor(exporter);
  const provider = new sdk.node.NodeTracerProvider({
    resource: sdk.resources.resourceFromAttributes({ "service.name": cfg.serviceName }),
    spanProcessors: [processor],
  });
  provider.register();
  // Next.js wraps the process's fetch and, with a tracer registered, records each call as a span named with the
  // full URL (query included): our own CLIENT spans (host and path only) cover the outbound calls instead.
  process.env.NEXT_OTEL_FETCH_DISABLED ??= "1";
  tracing.tracer = sdk.api.trace.getTracer("operator-identity-service");
  tracing.shutdown = () => provider.shutdown();
  tracing.on = true;
  if (!options.exporter) logger.info({ exporter: cfg.exporter, service: cfg.serviceName }, "OpenTelemetry traces on");
}

/** Flushes and stops tracing, and forgets the provider (tests; a later startTracing sets up again). */
export async function stopTracing(): Promise<void> {
  const shutdown = tracing.shutdown;
  tracing.on = false;
  tracing.started = false;
  tracing.tracer = null;
  tracing.shutdown = null;
  if (shutdown) await shutdown();
  const { trace, context } = await import("@opentelemetry/api");
  trace.disable();
  context.disable();
}
