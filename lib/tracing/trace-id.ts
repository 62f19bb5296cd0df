import { trace } from "@opentelemetry/api";
import { tracing } from "./tracing-state";

/** The active trace's id (the request id when tracing is on), or undefined when tracing is off. */
export function currentTraceId(): string | undefined {
  if (!tracing.on) return undefined;
  const id = trace.getActiveSpan()?.spanContext().traceId;
  return id && id !== "00000000000000000000000000000000" ? id : undefined;
}
