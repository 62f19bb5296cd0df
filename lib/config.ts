import path from "node:path";
import { z } from "zod";

/**
 * The service configuration: the only reader of `process.env`.
 * Parsed once; a bad or missing value throws one message naming the variable.
 */
const seconds = (def: number, max: number) => z.coerce.number().int().positive().max(max).default(def);
const secret = z
  .string({ error: "is required (at least 32 characters; `npm start` generates one in .data/secrets.env)" })
  .min(32, "must be at least 32 characters");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  ISSUER: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .default("http://localhost:3000")
    .refine((v) => !v.includes("?") && !v.includes("#"), "must not contain a query or fragment"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .default(`file:${path.join(process.cwd(), "prisma", "dev.db")}`)
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), "must start with file: or postgresql://"),
  CODE_TTL: seconds(60, 600),
  ACCESS_TOKEN_TTL: seconds(3600, 86_400),
  REFRESH_TOKEN_TTL: seconds(30 * 86_400, 365 * 86_400),
  SESSION_TTL: seconds(86_400, 30 * 86_400),
  AUTH_REQUEST_TTL: seconds(600, 3600),
  OTP_TTL: seconds(300, 900),
  KEY_ENCRYPTION_SECRET: secret,
  SUBJECT_SECRET: secret,
  MESSAGING_CHANNEL: z.enum(["inbox", "log"]).default("inbox"),
  DEVICE_INBOX_ENABLED: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = Readonly<Omit<z.infer<typeof schema>, "DEVICE_INBOX_ENABLED"> & { DEVICE_INBOX_ENABLED: boolean }>;

/** Parses an environment into a frozen configuration, or throws one line naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  const c = result.data;
  const inbox = c.DEVICE_INBOX_ENABLED ? c.DEVICE_INBOX_ENABLED === "true" : c.MESSAGING_CHANNEL === "inbox";
  return Object.freeze({ ...c, ISSUER: c.ISSUER, DEVICE_INBOX_ENABLED: inbox });
}

let cached: Config | undefined;

/** The process configuration (parsed on first use). */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
