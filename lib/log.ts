import pino from "pino";

const REDACT = [
  "pin", "code", "otp", "client_secret", "access_token", "refresh_token", "id_token", "token",
  "password", "authorization", "authentication", "cookie", "secret", "code_verifier",
];

/** Structured JSON logger; secret-bearing fields are redacted wherever they appear. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: undefined,
  redact: { paths: [...REDACT, ...REDACT.map((k) => `*.${k}`)], censor: "[redacted]" },
});

/** A child logger carrying the request id on every line. */
export function requestLogger(requestId: string) {
  return logger.child({ requestId });
}
