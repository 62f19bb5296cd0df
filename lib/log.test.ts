import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { logger } from "./log";
import { startTracing, stopTracing } from "./tracing/start-tracing";
import { tracing } from "./tracing/tracing-state";

// The logs' request id is the trace id when tracing is on (issue 22): pino's mixin adds it to each line.
const mixin = (logger as unknown as Record<symbol, (obj: object, level: number) => object>)[pino.symbols.mixinSym]!;

afterAll(() => stopTracing());

describe("logger mixin", () => {
  it("adds nothing with tracing off", async () => {
    await stopTracing();
    expect(mixin({}, 30)).toEqual({});
  });

  it("adds the active trace id as requestId with tracing on, unless the line names its own", async () => {
    startTracing({ exporter: new InMemorySpanExporter() });
    expect(mixin({}, 30)).toEqual({}); // outside any span
    tracing.tracer!.startActiveSpan("request", (span) => {
      const { traceId } = span.spanContext();
      expect(mixin({}, 30)).toEqual({ requestId: traceId });
      expect(mixin({ requestId: "own" }, 30)).toEqual({});
      expect(trace.getActiveSpan()).toBe(span);
      span.end();
    });
  });
});
