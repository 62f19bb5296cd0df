import { describe, expect, it } from "vitest";
import { DEFAULT_SERVICE_NAME, tracingConfig } from "./tracing-config";

describe("tracingConfig (OTEL_* variables)", () => {
  it("is off by default, with the default service name", () => {
    expect(tracingConfig({})).toEqual({ exporter: null, serviceName: DEFAULT_SERVICE_NAME });
    expect(DEFAULT_SERVICE_NAME).toBe("operator-identity-service");
  });

  it("turns on with OTEL_TRACES_EXPORTER=otlp or console (case and spaces ignored, first of a list)", () => {
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: "otlp" }).exporter).toBe("otlp");
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: " Console " }).exporter).toBe("console");
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: "console,otlp" }).exporter).toBe("console");
  });

  it("turns on with an OTLP endpoint when no exporter is named", () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).exporter).toBe("otlp");
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }).exporter).toBe("otlp");
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " }).exporter).toBeNull();
  });

  it("none and OTEL_SDK_DISABLED=true turn it off whatever else is set", () => {
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }).exporter).toBeNull();
    expect(tracingConfig({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" }).exporter).toBeNull();
    expect(tracingConfig({ OTEL_SDK_DISABLED: "TRUE", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }).exporter).toBeNull();
    expect(tracingConfig({ OTEL_SDK_DISABLED: "false", OTEL_TRACES_EXPORTER: "otlp" }).exporter).toBe("otlp");
  });

  it("reads OTEL_SERVICE_NAME", () => {
    expect(tracingConfig({ OTEL_SERVICE_NAME: "idp-eu-1" }).serviceName).toBe("idp-eu-1");
    expect(tracingConfig({ OTEL_SERVICE_NAME: "" }).serviceName).toBe(DEFAULT_SERVICE_NAME);
  });

  it("refuses an exporter it does not ship rather than silently tracing nothing", () => {
    expect(() => tracingConfig({ OTEL_TRACES_EXPORTER: "zipkin" })).toThrow(/zipkin/);
  });
});
