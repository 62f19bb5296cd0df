import { readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { isSupportedCountry, type CountryCode } from "libphonenumber-js/min";
import { deviceInboxAllowed } from "./messaging/device-inbox-allowed";
import { SUPPORTED_SCOPES } from "./oauth/scopes";
import { isNetworkApiScope, isPurposeScope } from "./network-apis/camara-scopes";
import { AA_TEXT, contrast, DARK_SURFACE, HEX_COLOUR, LIGHT_SURFACE, normaliseHex } from "./branding/colour";

/**
 * The service configuration: the only reader of `process.env`.
 * Parsed once; a bad or missing value throws one message naming the variable.
 */
const seconds = (def: number, max: number) => z.coerce.number().int().positive().max(max).default(def);
const secret = z
  .string({ error: "is required (at least 32 characters; `npm start` generates one in .data/secrets.env)" })
  .min(32, "must be at least 32 characters");

/**
 * The scopes a dynamically registered client may register (docs/registration.md): space-separated, each one of
 * SUPPORTED_SCOPES, openid among them. Default: every supported scope but the national identifier, which the
 * operator grants only to clients it knows (an operator-registered client, or this list widened).
 */
const registrationScopes = z.string()
  .default(SUPPORTED_SCOPES.filter((s) => s !== "mc_identity_nationalid").join(" "))
  .transform((value, ctx): string[] => {
    const list = [...new Set(value.split(/\s+/).filter(Boolean))];
    const unknown = list.filter((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s) && !isNetworkApiScope(s)
      && !isPurposeScope(s)); // network-API and purpose scopes: the operator may open them to registration
    if (unknown.length) {
      const message = `must list supported scopes only (unknown: ${unknown.join(" ").slice(0, 120)}; `
        + `supported: ${SUPPORTED_SCOPES.join(" ")})`;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    if (!list.includes("openid")) {
      ctx.addIssue({ code: "custom", message: "must include openid (every registered client's scopes include it)" });
      return z.NEVER;
    }
    return list;
  });

const count = (def: number) => z.coerce.number().int().positive().max(1_000_000).default(def);

export interface CidrRange { address: string; prefix: number; family: "ipv4" | "ipv6" }

/**
 * "100.64.0.0/10, 2001:db8::/32": comma- or space-separated CIDR ranges, IPv4 and IPv6; with `addresses`, a bare
 * address (10.0.0.7, ::1) is a range of one. An issue on `ctx` and z.NEVER for a bad entry.
 */
function parseRanges(value: string, ctx: z.RefinementCtx, { addresses = false } = {}): CidrRange[] {
  const ranges: CidrRange[] = [];
  for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
    const [address = "", bits, extra] = entry.split("/");
    const version = isIP(address);
    const max = version === 4 ? 32 : 128;
    const bare = bits === undefined && addresses;
    const prefix = bare ? max : Number(bits);
    if (!version || extra !== undefined || !(bare || /^\d{1,3}$/.test(bits ?? "")) || prefix > max) {
      const message = `must be a list of ${addresses ? "addresses or " : ""}CIDR ranges such as `
        + `${addresses ? "10.0.0.7 or " : ""}100.64.0.0/10 (bad entry "${entry.slice(0, 60)}")`;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    ranges.push({ address, prefix, family: version === 4 ? "ipv4" : "ipv6" });
  }
  return ranges;
}
/** A CIDR range list (parseRanges) with its default `def`. */
const cidrListOf = (def: string) => z.string().default(def).transform((value, ctx) => parseRanges(value, ctx));
const cidrList = cidrListOf("");

/** The operator's brand (lib/branding, docs/configuration.md "Branding"): every key optional, the default neutral. */
const brandName = z.string().trim().min(1).max(60, "must be at most 60 characters")
  .refine((v) => !/[\u0000-\u001f\u007f<>]/.test(v), "must not contain control characters or < >");
const brandColour = (surface: string, where: string) => z.string()
  .regex(HEX_COLOUR, "must be a hex colour such as #1d4ed8")
  .transform((v) => normaliseHex(v))
  .refine((v) => contrast(v, surface) >= AA_TEXT, {
    error: (issue) => `must reach ${AA_TEXT}:1 contrast against the ${where} (${String(issue.input)} gives `
      + `${contrast(String(issue.input), surface).toFixed(2)}:1): links and the brand line are written in it`,
  });
export const MAX_LOGO_BYTES = 100 * 1024;
const brandLogo = z.string()
  .refine((v) => /\.(svg|png)$/i.test(v), "must be the path of an .svg or .png file")
  .transform((v, ctx) => {
    const file = path.resolve(process.cwd(), v);
    let size = -1;
    try {
      const st = statSync(file);
      size = st.isFile() ? st.size : -1;
    } catch { /* missing */ }
    if (size < 0) ctx.addIssue({ code: "custom", message: `must name an existing file (${file} not found)` });
    else if (size > MAX_LOGO_BYTES) ctx.addIssue({ code: "custom", message: `must be at most ${MAX_LOGO_BYTES / 1024} KB` });
    return file;
  });

const brandSchema = {
  BRAND_NAME: brandName.optional(),
  BRAND_NAME_FR: brandName.optional(),
  BRAND_LOGO: brandLogo.optional(),
  BRAND_PRIMARY: brandColour(LIGHT_SURFACE, "white surface").optional(),
  BRAND_PRIMARY_DARK: brandColour(DARK_SURFACE, `dark surface ${DARK_SURFACE}`).optional(),
  BRAND_SUPPORT_URL: z.string()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "https:" && !!u.hostname) || (u.protocol === "mailto:" && /^[^@\s]+@[^@\s]+$/.test(u.pathname));
      } catch {
        return false;
      }
    }, "must be an https: URL or a mailto: address")
    .optional(),
};

const schema = z.object({
  ...brandSchema,
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  ISSUER: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .default("http://localhost:3000")
    .refine((v) => !v.includes("?") && !v.includes("#"), "must not contain a query or fragment"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Server processes sharing PORT (server/cluster.ts): `auto` is one per core the process may use (the cgroup CPU
  // quota when a container sets one, which Node 20's os.availableParallelism() ignores); 1 is a single process.
  WORKERS: z
    .string()
    .default("auto")
    .refine((v) => /^(auto|[1-9][0-9]{0,3})$/.test(v) && (v === "auto" || Number(v) <= 1024),
      "must be an integer from 1 to 1024, or auto (one per core)")
    .transform((v) => (v === "auto" ? autoWorkers() : Number(v))),
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
  // Seconds between two purges of expired rows inside the running server (lib/maintenance); 0 = never.
  PURGE_INTERVAL: z.coerce.number().int().min(0).max(86_400).default(600),
  // The operator's country (ISO 3166-1 alpha-2): numbers typed in its national format (07700 900001) are accepted.
  DEFAULT_COUNTRY: z
    .string()
    .default("GB")
    .refine((v) => isSupportedCountry(v), "must be an ISO 3166-1 alpha-2 country code with a calling code (e.g. GB)")
    .transform((v) => v as CountryCode),
  KEY_ENCRYPTION_SECRET: secret,
  SUBJECT_SECRET: secret,
  // Default: inbox in the local demo, else log (lib/messaging/device-inbox-allowed.ts).
  MESSAGING_CHANNEL: z.enum(["inbox", "log"]).optional(),
  DEVICE_INBOX_ENABLED: z.enum(["true", "false"]).optional(),
  // SQLite busy_timeout: how long a write waits for another connection's lock before the request
  // answers 503 (lib/db.ts). Milliseconds.
  DATABASE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  // SQLite: WAL checkpoints in a worker thread every this many ms (lib/store/sqlite-checkpointer.ts);
  // 0 leaves them to SQLite's automatic checkpoint inside a request's commit.
  SQLITE_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  // PostgreSQL: connections per instance (lib/db.ts). Instances x pool size must stay under the
  // server's max_connections (100 by default) minus what migrations and admin tools need.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  // Tolerated difference between our clock and the issuer of a token we did not mint (lib/oauth/clock-skew.ts).
  CLOCK_SKEW_SECONDS: z.coerce.number().int().min(0).max(300).default(60),
  // Development and tests only: URLs clients register or send (jwks_uri, request_uri, sector_identifier_uri) may
  // point at loopback addresses, over http too; nothing else private (lib/clients/fetch-client-document.ts).
  ALLOW_LOOPBACK_CLIENT_URLS: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Abuse limits an operator may tune (lib/security/limits.ts has the windows and the fixed policy).
  OTP_SEND_LIMIT_PER_REQUESTER: count(5),
  OTP_SEND_LIMIT_PER_MSISDN: count(20),
  OTP_SEND_LIMIT_PER_IP: count(20),
  OTP_SEND_LIMIT_PER_NAT_IP: count(2000),
  // The operator's own carrier-grade NAT ranges (mobile data): thousands of subscribers per address.
  CARRIER_NAT_RANGES: cidrList,
  CLIENT_AUTH_FAILURE_LIMIT: count(10),
  CLIENT_AUTH_FAILURE_LIMIT_PER_IP: count(50),
  // Demo clients (published secrets) and subscribers (known PINs), seeded by `npm start`. Default:
  // on for the embedded SQLite database (the local set-up), off for PostgreSQL (production).
  DEMO_DATA: z.enum(["true", "false"]).optional(),
  // The reverse proxies in front of the service: their addresses (IPs or CIDR ranges), checked against the
  // connection's peer; X-Forwarded-For counts only from them (lib/http/client-ip.ts). `false`, `0` or unset: none.
  // The former `true` and proxy counts trusted the header from anyone who reached the service directly:
  // refused, with what to write instead.
  TRUSTED_PROXY: z.string().default("false").transform((value, ctx): CidrRange[] => {
    if (/^\s*(false|0)\s*$/i.test(value)) return [];
    if (/^\s*(true|\d+)\s*$/i.test(value)) {
      ctx.addIssue({ code: "custom", message: "is now the list of your reverse proxies' addresses (IPs or CIDR "
        + "ranges, e.g. TRUSTED_PROXY=127.0.0.1 for nginx on the same host), checked against the connection's peer: "
        + `"${value.trim().slice(0, 8)}" trusted X-Forwarded-For from anyone who reached the service directly` });
      return z.NEVER;
    }
    return parseRanges(value, ctx, { addresses: true });
  }),
  // Network-based authentication (lib/network, docs/network-authentication.md): which resolver names the subscriber
  // of a data session (table: the NetworkRange table the admin CLI fills; none: off); header enrichment (the
  // header a trusted proxy adds with the subscriber's number, counted only from a socket peer inside
  // NETWORK_ENRICHMENT_PROXIES); behind TRUSTED_PROXY, the header the proxy sets to the client's source port.
  NETWORK_RESOLVER: z.enum(["table", "none"]).default("table"),
  NETWORK_ENRICHMENT_HEADER: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "must be an HTTP header name")
    .refine((v) => !["host", "cookie", "authorization", "x-forwarded-for", "x-network-peer-port", "content-type",
      "content-length", "dpop"].includes(v.toLowerCase()), "must be a header of its own (e.g. X-MSISDN)")
    .optional().transform((v) => v?.toLowerCase()),
  NETWORK_ENRICHMENT_PROXIES: cidrList,
  NETWORK_PORT_HEADER: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "must be an HTTP header name").optional()
    .transform((v) => v?.toLowerCase()),
  // Out-of-band approval requests (the handset; lib/out-of-band/approval-limits.ts): per requesting IP
  // (any number), per requesting IP and number, per number (any requester), per client, all per
  // 15 minutes; and how many may be pending at once per subscriber and per client.
  APPROVAL_LIMIT_PER_IP: z.coerce.number().int().positive().max(1_000_000).default(10),
  APPROVAL_LIMIT_PER_NAT_IP: z.coerce.number().int().positive().max(1_000_000).default(1000),
  APPROVAL_LIMIT_PER_IP_AND_NUMBER: z.coerce.number().int().positive().max(1_000_000).default(3),
  APPROVAL_LIMIT_PER_NUMBER: z.coerce.number().int().positive().max(1_000_000).default(10),
  APPROVAL_LIMIT_PER_CLIENT: z.coerce.number().int().positive().max(1_000_000).default(1000),
  APPROVAL_PENDING_PER_SUBSCRIBER: z.coerce.number().int().positive().max(1_000).default(5),
  APPROVAL_PENDING_PER_CLIENT: z.coerce.number().int().positive().max(1_000_000).default(200),
  // Dynamically registered clients (CIBA): their requests per number per 15 minutes, in a bucket of their own (never
  // the shared per-number one), and how many of a subscriber's pending requests may come from them; wrong user_codes
  // from them per subscriber per day (beyond it their user_codes are not checked).
  APPROVAL_LIMIT_PER_NUMBER_DYNAMIC: z.coerce.number().int().positive().max(1_000_000).default(3),
  APPROVAL_PENDING_DYNAMIC_PER_SUBSCRIBER: z.coerce.number().int().positive().max(1_000).default(2),
  USER_CODE_FAILURES_DYNAMIC_PER_SUBSCRIBER: z.coerce.number().int().positive().max(1_000_000).default(20),
  // KYC Match (docs/kyc-match.md "Limits"): calls per (client, phone number) per 24 hours, whatever the outcome.
  KYC_MATCH_LIMIT_PER_CLIENT_AND_NUMBER: z.coerce.number().int().positive().max(1_000_000).default(10),
  // CIBA: /bc-authorize calls per client per 15 minutes, counted before the hint is resolved, whatever the outcome.
  BACKCHANNEL_LIMIT_PER_CLIENT: z.coerce.number().int().positive().max(1_000_000).default(1000),
  // OpenID Connect CIBA (docs/ciba.md): an auth_req_id's lifetime without `requested_expiry`, the most a client may
  // ask, and the minimum seconds between two polls (`interval`).
  CIBA_DEFAULT_EXPIRY: seconds(300, 1800),
  CIBA_MAX_EXPIRY: seconds(600, 3600),
  CIBA_POLL_INTERVAL: z.coerce.number().int().min(1).max(60).default(5),
  // Dynamic client registration (RFC 7591, docs/registration.md): without an initial access token only when
  // open; requests per client address (an IPv6 /64) per 15 minutes at /register and /register/{client_id}.
  // (Whether its server-fetched URIs may point at loopback: ALLOW_LOOPBACK_CLIENT_URLS.)
  REGISTRATION_OPEN: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  REGISTRATION_LIMIT_PER_IP: count(20),
  // The scopes a dynamically registered client may ask for (the rest stay with the operator's `client create`).
  REGISTRATION_SCOPES: registrationScopes,
  // Prometheus metrics (lib/metrics, docs/observability.md): recorded at all (off: nothing recorded, /metrics 404);
  // who may scrape GET /metrics: a client address inside METRICS_ALLOWED_NETWORKS, or `Authorization: Bearer
  // <METRICS_TOKEN>` from anywhere.
  METRICS: z.enum(["on", "off"]).default("on").transform((v) => v === "on"),
  METRICS_ALLOWED_NETWORKS: cidrListOf("127.0.0.0/8 ::1/128"),
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
});

type Parsed = z.infer<typeof schema>;
export type Config = Readonly<Omit<Parsed, "DEVICE_INBOX_ENABLED" | "DEMO_DATA" | "MESSAGING_CHANNEL">
  & { DEVICE_INBOX_ENABLED: boolean; DEMO_DATA: boolean; MESSAGING_CHANNEL: "inbox" | "log" }>;

/** Parses an environment into a frozen configuration, or throws one line naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  const c = result.data;
  const demo = c.DEMO_DATA ? c.DEMO_DATA === "true" : c.DATABASE_URL.startsWith("file:");
  const allowed = deviceInboxAllowed({ DEMO_DATA: demo });
  const channel = c.MESSAGING_CHANNEL ?? (allowed ? "inbox" : "log");
  const inbox = channel === "inbox" && c.DEVICE_INBOX_ENABLED !== "false";
  if (!allowed && (channel === "inbox" || c.DEVICE_INBOX_ENABLED === "true")) {
    const what = channel === "inbox" ? "MESSAGING_CHANNEL=inbox" : "DEVICE_INBOX_ENABLED=true";
    throw new Error(`Invalid configuration: ${what} is only for the local demo (DEMO_DATA, the default with SQLite): `
      + "/handset/inbox shows any number's one-time codes to anyone; use MESSAGING_CHANNEL=log or an SMS gateway");
  }
  return Object.freeze({ ...c, MESSAGING_CHANNEL: channel, DEVICE_INBOX_ENABLED: inbox, DEMO_DATA: demo });
}

let cached: Config | undefined;

/** The process configuration (parsed on first use). */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * `WORKERS=auto`: the cores this process may use: os.availableParallelism() (the CPU affinity), lowered to the
 * cgroup v2 CPU quota (`cpu.max`: "<quota> <period>", or "max") when one is set, rounded up, at least 1.
 */
export function autoWorkers(cpuMax = readCpuMax()): number {
  const cores = availableParallelism();
  const [quota, period] = (cpuMax ?? "").trim().split(/\s+/);
  const q = Number(quota);
  const p = Number(period);
  if (!quota || quota === "max" || !(q > 0) || !(p > 0)) return cores;
  return Math.max(1, Math.min(cores, Math.ceil(q / p)));
}

function readCpuMax(): string | undefined {
  try {
    return readFileSync("/sys/fs/cgroup/cpu.max", "utf8");
  } catch {
    return undefined;
  }
}
