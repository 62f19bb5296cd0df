import type { Tracer } from "@opentelemetry/api";

/**
 * The process's tracing switch, on globalThis: the Next.js bundle and the lean server bundle each
 * load their own copy of lib/, and both must see the one provider (lib/tracing/start-tracing.ts).
 * Every instrumentation point reads `on` first and does nothing else when it is false.
 */
export interface TracingState {
  /** Tracing is on: `tracer` is set. */
  on: boolean;
  /** startTracing has run (on or off): the OTEL_* variables are read once per process. */
  started: boolean;
  tracer: Tracer | null;
  /** Flushes and stops the provider (tests, shutdown). */
  shutdown: (() => Promise<void>) | null;
}

const KEY = Symbol.for("operator-identity-service.tracing");
const holder = globalThis as unknown as { [KEY]?: TracingState };

/** The one tracing state of the process. */
export const tracing: TracingState = (holder[KEY] ??= { on: false, started: false, tracer: null, shutdown: null });
