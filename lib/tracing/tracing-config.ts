/** Which exporter the OTEL_* variables ask for; `null`: tracing off. */
export interface TracingConfig {
  readonly exporter: "otlp" | "console" | null;
  readonly serviceName: string;
}

/** The service name when OTEL_SERVICE_NAME is not set. */
export const DEFAULT_SERVICE_NAME = "operator-identity-service";

/**
 * Reads the standard OpenTelemetry variables that decide whether traces are on (the SDK itself reads
 * the rest: OTEL_EXPORTER_OTLP_*, OTEL_BSP_*, OTEL_TRACES_SAMPLER(_ARG)). Off by default; on with
 * OTEL_TRACES_EXPORTER=otlp|console, or with an OTLP endpoint set (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and no OTEL_TRACES_EXPORTER. OTEL_TRACES_EXPORTER=none and
 * OTEL_SDK_DISABLED=true turn it off whatever else is set. These are the SDK's own variables, read
 * here as the SDK reads them (not lib/config.ts: they belong to the OpenTelemetry specification).
 * An exporter name we do not ship (zipkin, jaeger, ...) throws: an error in the start-up log, traces off.
 */
export function tracingConfig(env: Record<string, string | undefined>): TracingConfig {
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { exporter: null, serviceName };
  // The specification allows a comma-separated list; the first supported one is used.
  const names = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0) {
    const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
    return { exporter: endpoint ? "otlp" : null, serviceName };
  }
  if (names.includes("none")) return { exporter: null, serviceName };
  for (const n of names) if (n !== "otlp" && n !== "console") {
    throw new Error(`OTEL_TRACES_EXPORTER: "${n}" is not supported (otlp, console or none)`);
  }
  return { exporter: names[0] as "otlp" | "console", serviceName };
}
