import { describe, expect, it } from "vitest";
import { autoWorkers, parseConfig } from "./config";

const SECRETS = {
  KEY_ENCRYPTION_SECRET: "k".repeat(32),
  SUBJECT_SECRET: "s".repeat(32),
};

/** The one-line message parseConfig throws for `env`. */
function failure(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("parseConfig accepted a bad configuration");
}

describe("parseConfig", () => {
  it("applies the documented defaults and freezes the result", () => {
    const c = parseConfig({ ...SECRETS });
    expect(c).toMatchObject({
      ISSUER: "http://localhost:3000", PORT: 3000, CODE_TTL: 60, ACCESS_TOKEN_TTL: 3600, NODE_ENV: "development",
      MESSAGING_CHANNEL: "inbox", DEVICE_INBOX_ENABLED: true, LOG_LEVEL: "info", DEFAULT_COUNTRY: "GB",
    });
    expect(c.DATABASE_URL).toMatch(/^file:.*prisma[/\\]dev\.db$/);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it("treats empty values as unset and accepts valid overrides", () => {
    const c = parseConfig({ ...SECRETS, ISSUER: "https://id.example.com", CODE_TTL: "600", PORT: "", DATABASE_URL: "postgresql://u@h/db" });
    expect(c).toMatchObject({ ISSUER: "https://id.example.com", CODE_TTL: 600, PORT: 3000, DATABASE_URL: "postgresql://u@h/db" });
    expect(parseConfig({ ...SECRETS, DEFAULT_COUNTRY: "FR" }).DEFAULT_COUNTRY).toBe("FR");
  });

  it.each([
    ["ISSUER", { ISSUER: "not a url" }],
    ["ISSUER", { ISSUER: "ftp://id.example.com" }],
    ["ISSUER", { ISSUER: "https://id.example.com/#x" }],
    ["KEY_ENCRYPTION_SECRET", { KEY_ENCRYPTION_SECRET: "short" }],
    ["KEY_ENCRYPTION_SECRET", { KEY_ENCRYPTION_SECRET: undefined }],
    ["SUBJECT_SECRET", { SUBJECT_SECRET: "" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/db" }],
    ["CODE_TTL", { CODE_TTL: "601" }],
    ["CODE_TTL", { CODE_TTL: "-5" }],
    ["PORT", { PORT: "70000" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["DEFAULT_COUNTRY", { DEFAULT_COUNTRY: "UK" }],
    ["DEFAULT_COUNTRY", { DEFAULT_COUNTRY: "gb" }],
    ["DEFAULT_COUNTRY", { DEFAULT_COUNTRY: "GBR" }],
  ])("refuses a bad %s with one line naming it", (name, bad) => {
    const message = failure({ ...SECRETS, ...bad });
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).not.toContain("\n");
  });

  it("names every bad variable in the same line", () => {
    const message = failure({ ISSUER: "nope", CODE_TTL: "9999" });
    for (const name of ["ISSUER", "CODE_TTL", "KEY_ENCRYPTION_SECRET", "SUBJECT_SECRET"]) expect(message).toContain(name);
    expect(message).not.toContain("\n");
  });

  describe("the device inbox exists only in the local demo", () => {
    const PG = "postgresql://u@127.0.0.1/db";

    it("is the default channel with demo data (SQLite's default), and log otherwise", () => {
      expect(parseConfig({ ...SECRETS })).toMatchObject({ DEMO_DATA: true, MESSAGING_CHANNEL: "inbox", DEVICE_INBOX_ENABLED: true });
      expect(parseConfig({ ...SECRETS, DATABASE_URL: PG, ISSUER: "https://id.example.com" }))
        .toMatchObject({ DEMO_DATA: false, MESSAGING_CHANNEL: "log", DEVICE_INBOX_ENABLED: false });
      expect(parseConfig({ ...SECRETS, DEMO_DATA: "false" })).toMatchObject({ MESSAGING_CHANNEL: "log", DEVICE_INBOX_ENABLED: false });
      expect(parseConfig({ ...SECRETS, DATABASE_URL: PG, DEMO_DATA: "true" })).toMatchObject({ MESSAGING_CHANNEL: "inbox" });
      expect(parseConfig({ ...SECRETS, DEVICE_INBOX_ENABLED: "false" })).toMatchObject({ DEVICE_INBOX_ENABLED: false });
    });

    it.each([
      ["MESSAGING_CHANNEL=inbox", { DATABASE_URL: PG, MESSAGING_CHANNEL: "inbox" }],
      ["MESSAGING_CHANNEL=inbox", { DEMO_DATA: "false", MESSAGING_CHANNEL: "inbox" }],
      ["DEVICE_INBOX_ENABLED=true", { DATABASE_URL: PG, DEVICE_INBOX_ENABLED: "true" }],
    ])("refuses %s outside the demo with one line saying why", (what, env) => {
      const message = failure({ ...SECRETS, ...env });
      expect(message).toMatch(new RegExp(`^Invalid configuration: ${what} is only for the local demo`));
      expect(message).toContain("one-time codes");
      expect(message).not.toContain("\n");
    });
  });

  describe("abuse limits", () => {
    it("default to a tight limit per requester, a higher ceiling per number, and a carrier-NAT limit", () => {
      expect(parseConfig({ ...SECRETS })).toMatchObject({
        OTP_SEND_LIMIT_PER_REQUESTER: 5, OTP_SEND_LIMIT_PER_MSISDN: 20, OTP_SEND_LIMIT_PER_IP: 20,
        OTP_SEND_LIMIT_PER_NAT_IP: 2000, CARRIER_NAT_RANGES: [],
      });
    });

    it("parses CARRIER_NAT_RANGES, IPv4 and IPv6, separated by commas or spaces", () => {
      const c = parseConfig({ ...SECRETS, CARRIER_NAT_RANGES: "100.64.0.0/10, 198.51.100.0/24 2001:db8:ca7::/48" });
      expect(c.CARRIER_NAT_RANGES).toEqual([
        { address: "100.64.0.0", prefix: 10, family: "ipv4" },
        { address: "198.51.100.0", prefix: 24, family: "ipv4" },
        { address: "2001:db8:ca7::", prefix: 48, family: "ipv6" },
      ]);
    });

    it.each(["100.64.0.0", "100.64.0.0/33", "2001:db8::/129", "example.com/8", "10.0.0.0/8/1", "10.0.0.0/x"])(
      "refuses the CARRIER_NAT_RANGES entry %s with one line naming it", (entry) => {
        const message = failure({ ...SECRETS, CARRIER_NAT_RANGES: `100.64.0.0/10,${entry}` });
        expect(message).toMatch(/^Invalid configuration: CARRIER_NAT_RANGES must be a list of CIDR ranges/);
        expect(message).toContain(entry);
        expect(message).not.toContain("\n");
      });
  });

  describe("operator branding", () => {
    const LOGO = "e2e/fixtures/brand/demo-logo.svg";

    it("is neutral by default and accepts a full brand (colours normalised, logo resolved)", () => {
      const neutral = parseConfig({ ...SECRETS });
      for (const key of ["BRAND_NAME", "BRAND_NAME_FR", "BRAND_LOGO", "BRAND_PRIMARY", "BRAND_PRIMARY_DARK", "BRAND_SUPPORT_URL"] as const) {
        expect(neutral[key]).toBeUndefined();
      }
      const c = parseConfig({ ...SECRETS, BRAND_NAME: " Acme Mobile ", BRAND_NAME_FR: "Acme Mobile France", BRAND_LOGO: LOGO,
        BRAND_PRIMARY: "#B4235A", BRAND_PRIMARY_DARK: "#f9a8d4", BRAND_SUPPORT_URL: "https://help.acme.example/id" });
      expect(c).toMatchObject({ BRAND_NAME: "Acme Mobile", BRAND_NAME_FR: "Acme Mobile France",
        BRAND_PRIMARY: "#b4235a", BRAND_PRIMARY_DARK: "#f9a8d4", BRAND_SUPPORT_URL: "https://help.acme.example/id" });
      expect(c.BRAND_LOGO).toMatch(/e2e[/\\]fixtures[/\\]brand[/\\]demo-logo\.svg$/);
      expect(parseConfig({ ...SECRETS, BRAND_SUPPORT_URL: "mailto:help@acme.example" }).BRAND_SUPPORT_URL)
        .toBe("mailto:help@acme.example");
      expect(parseConfig({ ...SECRETS, BRAND_PRIMARY: "#03c" }).BRAND_PRIMARY).toBe("#0033cc");
    });

    it.each([
      ["BRAND_PRIMARY", { BRAND_PRIMARY: "blue" }, "must be a hex colour"],
      ["BRAND_PRIMARY", { BRAND_PRIMARY: "#12345" }, "must be a hex colour"],
      ["BRAND_PRIMARY", { BRAND_PRIMARY: "#1d4ed8;}body{" }, "must be a hex colour"],
      ["BRAND_PRIMARY", { BRAND_PRIMARY: "#facc15" }, "contrast against the white surface"],
      ["BRAND_PRIMARY_DARK", { BRAND_PRIMARY_DARK: "#1e3a8a" }, "contrast against the dark surface"],
      ["BRAND_SUPPORT_URL", { BRAND_SUPPORT_URL: "http://help.acme.example" }, "https: URL or a mailto:"],
      ["BRAND_SUPPORT_URL", { BRAND_SUPPORT_URL: "javascript:alert(1)" }, "https: URL or a mailto:"],
      ["BRAND_SUPPORT_URL", { BRAND_SUPPORT_URL: "mailto:nobody" }, "https: URL or a mailto:"],
      ["BRAND_LOGO", { BRAND_LOGO: "e2e/fixtures/brand/missing-logo.svg" }, "must name an existing file"],
      ["BRAND_LOGO", { BRAND_LOGO: "e2e/fixtures/brand" }, "must be the path of an .svg or .png file"],
      ["BRAND_LOGO", { BRAND_LOGO: "package.json" }, "must be the path of an .svg or .png file"],
      ["BRAND_NAME", { BRAND_NAME: "x".repeat(61) }, "at most 60"],
      ["BRAND_NAME", { BRAND_NAME: "<script>" }, "must not contain"],
    ])("refuses a bad %s (%j) with one line saying why", (name, bad, why) => {
      const message = failure({ ...SECRETS, ...bad });
      expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
      expect(message).toContain(why);
      expect(message).not.toContain("\n");
    });
  });

  describe("metrics", () => {
    it("records by default, scrapes from loopback only, without a token", () => {
      const c = parseConfig({ ...SECRETS });
      expect(c.METRICS).toBe(true);
      expect(c.METRICS_ALLOWED_NETWORKS).toEqual([{ address: "127.0.0.0", prefix: 8, family: "ipv4" },
        { address: "::1", prefix: 128, family: "ipv6" }]);
      expect(c.METRICS_TOKEN).toBeUndefined();
    });

    it("turns off, takes other networks and a token; refuses a short token and a bad range", () => {
      const c = parseConfig({ ...SECRETS, METRICS: "off", METRICS_ALLOWED_NETWORKS: "10.0.0.0/8, fd00::/8",
        METRICS_TOKEN: "t".repeat(32) });
      expect(c.METRICS).toBe(false);
      expect(c.METRICS_ALLOWED_NETWORKS.map((r) => `${r.address}/${r.prefix}`)).toEqual(["10.0.0.0/8", "fd00::/8"]);
      expect(failure({ ...SECRETS, METRICS_TOKEN: "short" })).toContain("METRICS_TOKEN must be at least 32 characters");
      expect(failure({ ...SECRETS, METRICS_ALLOWED_NETWORKS: "10.0.0.0/33" })).toContain("METRICS_ALLOWED_NETWORKS");
      expect(failure({ ...SECRETS, METRICS: "yes" })).toContain("METRICS");
    });
  });
  it("WORKERS: a count from 1, or auto (one per core, the default)", async () => {
    const { availableParallelism } = await import("node:os");
    expect(parseConfig({ ...SECRETS }).WORKERS).toBe(autoWorkers());
    expect(parseConfig({ ...SECRETS, WORKERS: "auto" }).WORKERS).toBe(autoWorkers());
    expect(parseConfig({ ...SECRETS, WORKERS: "1" }).WORKERS).toBe(1);
    expect(parseConfig({ ...SECRETS, WORKERS: "4" }).WORKERS).toBe(4);
    for (const bad of ["0", "-1", "1.5", "two", "AUTO", "01", "2000"]) {
      expect(failure({ ...SECRETS, WORKERS: bad })).toBe(
        "Invalid configuration: WORKERS must be an integer from 1 to 1024, or auto (one per core)");
    }
    // auto: the cores of the CPU affinity, lowered to a container's cgroup v2 quota (cpu.max), rounded up
    const cores = availableParallelism();
    expect(autoWorkers(undefined)).toBe(cores);
    expect(autoWorkers("max 100000\n")).toBe(cores);
    expect(autoWorkers("100000 100000\n")).toBe(1);
    expect(autoWorkers("150000 100000")).toBe(Math.min(cores, 2));
    expect(autoWorkers("50000 100000")).toBe(1);
    expect(autoWorkers(`${100000 * (cores + 8)} 100000`)).toBe(cores);
    expect(autoWorkers("garbage")).toBe(cores);
  });
});
