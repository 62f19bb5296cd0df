import pino from "pino";
import { currentTraceId } from "./tracing/trace-id";

const REDACT = [
  "pin", "code", "otp", "client_secret", "access_token", "refresh_token", "id_token", "token",
  "password", "authorization", "authentication", "cookie", "secret", "code_verifier",
];

const NONE = {};

/**
 * Structured JSON logger; secret-bearing fields are redacted wherever they appear. With OpenTelemetry
 * traces on (lib/tracing), every line written inside a request carries its trace id as `requestId`
 * (unless the line names one itself); with them off, lines are as they always were.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: undefined,
  mixin(obj) {
    const traceId = currentTraceId();
    return traceId && !("requestId" in obj) ? { requestId: traceId } : NONE;
  },
  redact: { paths: [...REDACT, ...REDACT.map((k) => `*.${k}`)], censor: "[redacted]" },
});

/** A child logger carrying the request id on every line. */
export function requestLogger(requestId: string) {
  return logger.child({ requestId });
}
