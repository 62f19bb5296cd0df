import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, TEST_SECRETS } from "../../support/server";
import { db } from "@/lib/db";
import { config, parseConfig } from "@/lib/config";
import { verifySecret } from "@/lib/crypto";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { seedDemoData } from "@/lib/demo/seed-demo-data";

const root = fileURLToPath(new URL("../../..", import.meta.url));
let databaseUrl = "";

// The seed writes demo rows; it gets its own database so the integration server's stays as tests expect.
beforeAll(() => {
  databaseUrl = freshDatabase("seed");
  process.env.DATABASE_URL = databaseUrl;
  expect(config().DATABASE_URL).toBe(databaseUrl);
});

async function snapshot() {
  const [clients, subscribers, keys] = await Promise.all([
    db.client.findMany({ orderBy: { id: "asc" } }), db.subscriber.findMany({ orderBy: { msisdn: "asc" } }),
    db.key.findMany({ orderBy: { kid: "asc" } }),
  ]);
  return { clients, subscribers, keys };
}

const IDENTITY = ["title", "givenName", "middleName", "familyName", "preferredUsername", "gender", "birthDate", "locale",
  "picture", "website", "email", "phoneNumberAlternative", "streetAddress", "city", "state", "postalCode", "country",
  "nationalIdentifier"] as const;

describe("demo data seed", () => {
  it("creates the documented clients, subscribers and keys", async () => {
    expect(await seedDemoData()).toMatch(/clients 4 created.*subscribers 4 created.*console staff 3 created/);
    const { clients, subscribers, keys } = await snapshot();
    // The console's demo staff sign in with the published password and TOTP secret (docs/console.md).
    const { verifyStaffSignIn } = await import("@/lib/console/verify-staff-sign-in");
    const { totpCode } = await import("@/lib/console/totp");
    expect(await verifyStaffSignIn({ username: "demo-care", password: "demo-console-change-me",
      code: totpCode("JBSWY3DPEHPK3PXP", "demo-care"), ip: null })).toMatchObject({ username: "demo-care", role: "care" });
    // One active key per signing algorithm (issue 23) and the enc key.
    expect(keys.filter((k) => k.status === "active").map((k) => `${k.use} ${k.alg}`).sort())
      .toEqual(["enc RSA1_5", "sig ES256", "sig EdDSA", "sig PS256", "sig RS256"]);

    const demo = clients.find((c) => c.id === "demo-client")!;
    expect(demo).toMatchObject({ name: "DemoApp", profile: "mobile-connect", expiresInFormat: "timestamp", isPublic: false,
      sectorIdentifier: "localhost:3000" });
    expect(JSON.parse(demo.redirectUris)).toEqual([
      "http://localhost:3000/callback", "http://127.0.0.1:3000/callback", "http://localhost:3000/playground/callback"]);
    expect(JSON.parse(demo.postLogoutRedirectUris)).toEqual(["http://localhost:3000/"]);
    expect(demo.allowedScopes.split(" ")).toEqual([...SUPPORTED_SCOPES]);
    expect(demo.secretHash).not.toContain("demo-secret");
    expect(await verifySecret("demo-secret-change-me", demo.secretHash!)).toBe(true);
    const sdk = clients.find((c) => c.id === "demo-client-sdk")!;
    expect(sdk).toMatchObject({ name: "DemoSdkApp", profile: "mobile-connect", expiresInFormat: "seconds" });
    expect(await verifySecret("demo-sdk-secret-change-me", sdk.secretHash!)).toBe(true);
    const ciba = clients.find((c) => c.id === "demo-client-ciba")!;
    expect(ciba).toMatchObject({ name: "DemoCallCentre", profile: "oidc", expiresInFormat: "seconds",
      backchannelTokenDeliveryMode: "poll", grantTypes: "authorization_code refresh_token urn:openid:params:grant-type:ciba" });
    expect(await verifySecret("demo-ciba-secret-change-me", ciba.secretHash!)).toBe(true);
    // Issue 21: the network-API client and the operator's demo purpose declarations.
    const camara = clients.find((c) => c.id === "demo-client-camara")!;
    expect(camara).toMatchObject({ name: "DemoNetworkApis", profile: "oidc", clientCredentialsScopes:
      "sim-swap:check sim-swap:retrieve-date kyc-match:match dpv:FraudPreventionAndDetection" });
    expect(camara.allowedScopes.split(" ")).toContain("dpv:FraudPreventionAndDetection");
    expect(await verifySecret("demo-camara-secret-change-me", camara.secretHash!)).toBe(true);
    const purposes = await db.apiPurpose.findMany({ orderBy: { scope: "asc" } });
    expect(camara.allowedScopes.split(" ")).toContain("dpv:IdentityVerification");
    expect(purposes.map((p) => [p.scope, p.purpose, p.legalBasis]).sort()).toEqual([
      ["kyc-match:match", "dpv:FraudPreventionAndDetection", "legitimate_interest"],
      ["kyc-match:match", "dpv:IdentityVerification", "consent"],
      ["number-verification:device-phone-number:read", "dpv:FraudPreventionAndDetection", "legitimate_interest"],
      ["number-verification:verify", "dpv:FraudPreventionAndDetection", "legitimate_interest"],
      ["sim-swap:check", "dpv:FraudPreventionAndDetection", "legitimate_interest"],
      ["sim-swap:retrieve-date", "dpv:FraudPreventionAndDetection", "legitimate_interest"]]);

    const [full, phoneOnly, suspended, partial] = subscribers;
    expect(subscribers.map((s) => [s.msisdn, s.status])).toEqual([
      ["447700900001", "active"], ["447700900002", "active"], ["447700900003", "suspended"], ["447700900004", "active"]]);
    for (const [s, pin] of [[full, "2580"], [phoneOnly, "1357"], [suspended, "9753"], [partial, "8642"]] as const) {
      expect(await verifySecret(pin, s!.pinHash!), s!.msisdn).toBe(true);
    }
    for (const attr of IDENTITY) expect(full![attr], attr).toBeTruthy();
    expect(full!.emailVerified).toBe(true);
    for (const attr of IDENTITY) expect(phoneOnly![attr], attr).toBeNull();
    expect(IDENTITY.filter((a) => partial![a] !== null)).toEqual(["givenName", "familyName", "email"]);
  });

  const runSeedScript = (demoData: "true" | "false") => new Promise<string>((resolve, reject) => {
    execFile(path.join(root, "node_modules", ".bin", "tsx"), ["prisma/seed.ts"], {
      cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl, DEMO_DATA: demoData },
    }, (err, out, errOut) => (err ? reject(new Error(errOut)) : resolve(out)));
  });

  it("re-running, in process or as `npm start` does (prisma/seed.ts), changes nothing", async () => {
    const before = await snapshot();
    expect(await seedDemoData()).toMatch(/clients 0 created, 4 kept; subscribers 0 created, 4 kept; console staff 0 created, 3 kept/);
    expect(await runSeedScript("true")).toMatch(/^Demo data: .*0 created, 4 kept.*0 created, 4 kept.*0 created, 3 kept\n$/);
    expect(await snapshot()).toEqual(before);
  });

  it("DEMO_DATA=false (the default on PostgreSQL) seeds nothing: no published demo secret in production", async () => {
    await db.client.deleteMany({ where: { id: { in: ["demo-client", "demo-client-sdk", "demo-client-ciba"] } } });
    expect(await runSeedScript("false")).toMatch(/^Demo data: not seeded/);
    expect(await db.client.count({ where: { id: { in: ["demo-client", "demo-client-sdk", "demo-client-ciba"] } } })).toBe(0);
    expect(parseConfig({ ...TEST_SECRETS, DATABASE_URL: "postgresql://u@127.0.0.1/db" }).DEMO_DATA).toBe(false);
    expect(parseConfig({ ...TEST_SECRETS, DATABASE_URL: "file:/tmp/x.db" }).DEMO_DATA).toBe(true);
    expect(parseConfig({ ...TEST_SECRETS, DATABASE_URL: "postgresql://u@127.0.0.1/db", DEMO_DATA: "true" }).DEMO_DATA).toBe(true);
  });
});
