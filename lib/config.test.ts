import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";

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
      MESSAGING_CHANNEL: "inbox", DEVICE_INBOX_ENABLED: true, LOG_LEVEL: "info",
    });
    expect(c.DATABASE_URL).toMatch(/^file:.*prisma[/\\]dev\.db$/);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it("treats empty values as unset and accepts valid overrides", () => {
    const c = parseConfig({ ...SECRETS, ISSUER: "https://id.example.com", CODE_TTL: "600", PORT: "", DATABASE_URL: "postgresql://u@h/db" });
    expect(c).toMatchObject({ ISSUER: "https://id.example.com", CODE_TTL: 600, PORT: 3000, DATABASE_URL: "postgresql://u@h/db" });
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
});
