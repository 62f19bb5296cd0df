import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, TEST_SECRETS } from "../../support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { verifySecret } from "@/lib/crypto";
import { decryptMsisdn } from "@/lib/oauth/hints/encr-msisdn";
import { getActiveKey, getKeys, invalidateKeyCache } from "@/lib/keys/key-store";
import { pairwiseSubject, resolvePairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { AdminError } from "@/lib/admin/admin-error";
import { checkRedirectUri } from "@/lib/clients/client-fields";
import { createClient } from "@/lib/clients/create-client";
import { deleteClient } from "@/lib/clients/delete-client";
import { updateClient } from "@/lib/clients/update-client";
import { checkPinStrength } from "@/lib/subscribers/check-pin-strength";
import { normaliseMsisdnOrThrow } from "@/lib/subscribers/normalise-msisdn-or-throw";
import { parseAttributes } from "@/lib/subscribers/subscriber-attributes";
import { createSubscriber } from "@/lib/subscribers/create-subscriber";
import { suspendSubscriber } from "@/lib/subscribers/suspend-subscriber";
import { getSubscriberByMsisdn } from "@/lib/subscribers/get-subscriber-by-msisdn";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
let databaseUrl = "";
// Each CLI spawn is a full tsx + Prisma start-up (~1 s, more on a loaded CI machine).
vi.setConfig({ testTimeout: 90_000 });

// The CLI and this worker share one fresh database, so the CLI's writes are checked row by row and
// the integration server's database is left alone.
beforeAll(async () => {
  databaseUrl = freshDatabase("admin");
  process.env.DATABASE_URL = databaseUrl;
  expect(config().DATABASE_URL).toBe(databaseUrl);
  // Keys exist before CLI processes run side by side (as after the first `npm start`).
  await getKeys();
});

type Run = { code: number; stdout: string; stderr: string };

/** Runs the real CLI (`npm run admin -- ...`) as a child process. */
function admin(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/admin.ts", ...args], {
      cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl },
    }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

/** Runs the CLI with --json and parses its one JSON object. */
async function adminJson(...args: string[]) {
  const run = await admin(...args, "--json");
  expect(run.stdout.trim().split("\n"), run.stderr).toHaveLength(1);
  return { ...run, body: JSON.parse(run.stdout) as Record<string, any> };
}

async function snapshot() {
  const [clients, subscribers, keys, pcrs] = await Promise.all([
    db.client.findMany({ orderBy: { id: "asc" } }), db.subscriber.findMany({ orderBy: { id: "asc" } }),
    db.key.findMany({ orderBy: { kid: "asc" } }), db.pairwiseSubject.findMany({ orderBy: { sub: "asc" } }),
  ]);
  return JSON.stringify({ clients, subscribers, keys, pcrs });
}

describe("admin CLI: clients", () => {
  let clientId = "";
  let secret = "";

  it("client create prints the id and the secret once, stores only the scrypt hash", async () => {
    const { code, body } = await adminJson("client", "create", "--name", "Shop App",
      "--redirect-uri", "https://shop.example.com/cb", "https://shop.example.com/cb2",
      "--scope", "openid", "mc_authn", "mc_identity_phonenumber", "--post-logout-redirect-uri", "https://shop.example.com/bye");
    expect(code).toBe(0);
    clientId = body.client_id;
    secret = body.client_secret;
    expect(body.secret_stored).toBe(false);
    // Issue 18: new clients default to the oidc profile, whose expires_in is in seconds.
    expect(body.client).toMatchObject({ client_name: "Shop App", sector_identifier: "shop.example.com", profile: "oidc",
      expires_in_format: "seconds" });
    const row = await db.client.findUniqueOrThrow({ where: { id: clientId } });
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(await verifySecret(secret, row.secretHash!)).toBe(true);
    expect(JSON.parse(row.redirectUris)).toEqual(["https://shop.example.com/cb", "https://shop.example.com/cb2"]);
    expect(row.allowedScopes).toBe("openid mc_authn mc_identity_phonenumber");

    const human = await admin("client", "create", "--name", "Native App", "--redirect-uri", "com.example.app:/cb",
      "--scope", "openid", "--expires-in", "seconds");
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/client_secret: \S{43}\n.*not stored.*cannot be shown again/);
    expect(await db.client.findFirstOrThrow({ where: { name: "Native App" } })).toMatchObject({
      expiresInFormat: "seconds", sectorIdentifier: "com.example.app",
    });

    // --profile mobile-connect: the interface's rules and, unless --expires-in says otherwise, its expires_in.
    const mc = await adminJson("client", "create", "--name", "Spec App", "--redirect-uri", "https://spec.example.com/cb",
      "--scope", "openid", "--profile", "mobile-connect");
    expect(mc.body.client).toMatchObject({ profile: "mobile-connect", expires_in_format: "timestamp" });
    const bad = await adminJson("client", "create", "--name", "Bad App", "--redirect-uri", "https://bad.example.com/cb",
      "--scope", "openid", "--profile", "saml");
    expect(bad.code).toBe(1);
    expect(bad.body.error).toMatch(/saml/);
  });

  it("client list and show reveal no secret material", async () => {
    const [list, show, human] = await Promise.all([
      adminJson("client", "list"), adminJson("client", "show", clientId), admin("client", "show", clientId),
    ]);
    expect(list.body.clients.map((c: { client_id: string }) => c.client_id)).toContain(clientId);
    expect(show.body.client).toMatchObject({ client_id: clientId, has_secret: true, public: false });
    expect(human.stdout).toContain("client_name: Shop App");
    for (const out of [list.stdout, show.stdout, human.stdout]) expect(out).not.toMatch(/scrypt|secret_hash|secretHash/);
  });

  it("client rotate-secret replaces the secret; the old one stops verifying", async () => {
    const { body } = await adminJson("client", "rotate-secret", clientId);
    const row = await db.client.findUniqueOrThrow({ where: { id: clientId } });
    expect(await verifySecret(body.client_secret, row.secretHash!)).toBe(true);
    expect(await verifySecret(secret, row.secretHash!)).toBe(false);
  });

  it("client set --expires-in timestamp changes the token option (the default is now seconds)", async () => {
    const { body } = await adminJson("client", "set", clientId, "--expires-in", "timestamp");
    expect(body.client.expires_in_format).toBe("timestamp");
    expect((await db.client.findUniqueOrThrow({ where: { id: clientId } })).expiresInFormat).toBe("timestamp");
  });

  it("client set --profile changes the rules and brings the profile's expires_in unless --expires-in is given", async () => {
    expect((await adminJson("client", "set", clientId, "--profile", "mobile-connect")).body.client)
      .toMatchObject({ profile: "mobile-connect", expires_in_format: "timestamp" });
    expect((await adminJson("client", "set", clientId, "--profile", "oidc", "--expires-in", "timestamp")).body.client)
      .toMatchObject({ profile: "oidc", expires_in_format: "timestamp" });
    expect((await db.client.findUniqueOrThrow({ where: { id: clientId } })).profile).toBe("oidc");
  });

  it("client delete removes the row; a second delete is an unknown client", async () => {
    expect((await admin("client", "delete", clientId)).code).toBe(0);
    expect(await db.client.findUnique({ where: { id: clientId } })).toBeNull();
    const again = await admin("client", "delete", clientId);
    expect(again).toMatchObject({ code: 1, stdout: "", stderr: `error: unknown client ${clientId}\n` });
  });
});

describe("admin CLI: client keys and security options (issue 19)", () => {
  it("client create/set/show: --auth-method, --jwks (file or JSON), --jwks-uri, --require-*, --grant-types, scopes", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: "rp-key-1", alg: "ES256", use: "sig" };
    const file = path.join(os.tmpdir(), `jwks-${process.pid}-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify({ keys: [jwk] }));
    const created = await adminJson("client", "create", "--name", "Key App", "--redirect-uri", "https://key.example.com/cb",
      "--scope", "openid", "mc_identity_phonenumber", "--auth-method", "private_key_jwt", "--jwks", file,
      "--require-par", "--require-dpop", "--grant-types", "authorization_code", "client_credentials",
      "--client-credentials-scopes", "introspection", "--consent-free-scopes", "mc_identity_phonenumber");
    expect(created.code).toBe(0);
    const id = created.body.client_id as string;
    expect(created.body.client_secret).toBeNull();
    expect(created.body.client).toMatchObject({ has_secret: false, token_endpoint_auth_method: "private_key_jwt",
      jwks_keys: ["rp-key-1 EC ES256"], jwks_uri: null, require_signed_request_object: false,
      require_pushed_authorization_requests: true, dpop_bound_access_tokens: true,
      grant_types: ["authorization_code", "client_credentials"], client_credentials_scopes: ["introspection"],
      consent_free_scopes: ["mc_identity_phonenumber"] });
    const row = await db.client.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ tokenEndpointAuthMethod: "private_key_jwt", secretHash: null, jwksUri: null,
      requirePushedAuthorizationRequests: true, dpopBoundAccessTokens: true });
    expect(JSON.parse(row.jwks!)).toEqual({ keys: [jwk] });

    const set = await adminJson("client", "set", id, "--jwks", "none", "--jwks-uri", "https://key.example.com/jwks.json",
      "--require-signed-request", "--no-require-par", "--no-require-dpop", "--consent-free-scopes", "none");
    expect(set.body.client).toMatchObject({ jwks_keys: [], jwks_uri: "https://key.example.com/jwks.json",
      require_signed_request_object: true, require_pushed_authorization_requests: false, dpop_bound_access_tokens: false,
      consent_free_scopes: [] });
    const shown = await admin("client", "show", id);
    for (const line of ["token_endpoint_auth_method: private_key_jwt", "jwks_uri: https://key.example.com/jwks.json",
      "require_signed_request_object: true", "grant_types: authorization_code client_credentials"]) {
      expect(shown.stdout).toContain(line);
    }

    // Inline JSON; bad keys and inconsistent options are refused with one line and change nothing.
    const before = await snapshot();
    const bad = await Promise.all([
      admin("client", "create", "--name", "Key App 2", "--redirect-uri", "https://k2.example.com/cb", "--scope", "openid",
        "--auth-method", "private_key_jwt"),
      admin("client", "set", id, "--jwks", JSON.stringify({ keys: [await exportJWK(privateKey)] })),
      admin("client", "set", id, "--jwks", JSON.stringify({ keys: [jwk] })),
      admin("client", "set", id, "--grant-types", "password"),
    ]);
    expect(bad.map((r) => r.code)).toEqual([1, 1, 1, 1]);
    expect(bad[0]!.stderr).toMatch(/needs the client's public keys/);
    expect(bad[1]!.stderr).toMatch(/private or symmetric/);
    expect(bad[2]!.stderr).toMatch(/jwks or jwks_uri, not both/);
    expect(bad[3]!.stderr).toMatch(/unknown grant type password/);
    expect(await snapshot()).toBe(before);
  });
});

describe("admin CLI: subscribers", () => {
  const msisdn = "447700900555";

  it("subscriber create stores attributes and a hashed PIN; show and list display them", async () => {
    const created = await admin("subscriber", "create", "--msisdn", `+${msisdn}`, "--pin", "2580",
      "--attribute", "given_name=Alice", "family_name=Example", "street_address=1 High Street", "email=alice@example.com",
      "email_verified=true", "birth_date=1990-04-01");
    expect(created.code, created.stderr).toBe(0);
    const row = await db.subscriber.findUniqueOrThrow({ where: { msisdn } });
    expect(row).toMatchObject({ givenName: "Alice", streetAddress: "1 High Street", emailVerified: true, birthDate: "1990-04-01" });
    expect(await verifySecret("2580", row.pinHash!)).toBe(true);
    const [show, list] = await Promise.all([adminJson("subscriber", "show", msisdn), adminJson("subscriber", "list")]);
    expect(show.body.subscriber).toMatchObject({ msisdn, status: "active", attributes: { given_name: "Alice", email_verified: true } });
    expect(list.body.subscribers.map((s: { msisdn: string }) => s.msisdn)).toContain(msisdn);
    expect(show.stdout + list.stdout).not.toContain("scrypt");
  });

  it("set-pin, suspend, activate and unlock change the row", async () => {
    await db.subscriber.update({ where: { msisdn }, data: { failedPinAttempts: 3, lockoutCount: 2, lockedUntil: new Date(Date.now() + 60_000) } });
    expect((await admin("subscriber", "set-pin", msisdn, "--pin", "7391")).code).toBe(0);
    let row = await db.subscriber.findUniqueOrThrow({ where: { msisdn } });
    expect(await verifySecret("7391", row.pinHash!)).toBe(true);
    expect(row).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });

    expect((await adminJson("subscriber", "suspend", msisdn)).body.subscriber.status).toBe("suspended");
    expect((await db.subscriber.findUniqueOrThrow({ where: { msisdn } })).status).toBe("suspended");
    expect((await admin("subscriber", "activate", msisdn)).code).toBe(0);
    expect((await db.subscriber.findUniqueOrThrow({ where: { msisdn } })).status).toBe("active");

    await db.subscriber.update({ where: { msisdn }, data: { failedPinAttempts: 5, lockoutCount: 1, lockedUntil: new Date(Date.now() + 60_000) } });
    expect((await adminJson("subscriber", "unlock", msisdn)).body.subscriber).toMatchObject({ failed_pin_attempts: 0, locked_until: null });
    row = await db.subscriber.findUniqueOrThrow({ where: { msisdn } });
    expect(row).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
  });

  it("encr-msisdn output decrypts back to the MSISDN with the enc private key", async () => {
    const [json, human] = await Promise.all([adminJson("subscriber", "encr-msisdn", msisdn), admin("subscriber", "encr-msisdn", msisdn)]);
    invalidateKeyCache();
    const { privateKey, kid } = await getActiveKey("enc");
    expect(json.body).toMatchObject({ msisdn, kid, registered: true });
    expect(json.body.login_hint).toBe(`ENCR_MSISDN:${json.body.encr_msisdn}`);
    expect(decryptMsisdn({ value: json.body.encr_msisdn, privateKey })).toBe(msisdn);
    expect(decryptMsisdn({ value: human.stdout.split("\n")[0]!, privateKey })).toBe(msisdn);
  });

  it("pcr prints the pairwise subject for the client's sector and makes it resolvable", async () => {
    const { client } = await createClient({ name: "PCR App", redirectUris: ["https://pcr.example.com/cb"], scopes: ["openid"] });
    const { body } = await adminJson("subscriber", "pcr", msisdn, "--client", client.id);
    const subscriber = await db.subscriber.findUniqueOrThrow({ where: { msisdn } });
    expect(body.pcr).toBe(pairwiseSubject({ subscriberId: subscriber.id, sectorIdentifier: "pcr.example.com" }));
    expect(body.login_hint).toBe(`PCR:${body.pcr}`);
    expect(await resolvePairwiseSubject({ sub: body.pcr, sectorIdentifier: "pcr.example.com" })).toBe(subscriber.id);
  });
});

describe("admin CLI: keys", () => {
  it("keys list shows kid, use, alg, status and dates, never private material", async () => {
    const [{ body, stdout }, human] = await Promise.all([adminJson("keys", "list"), admin("keys", "list")]);
    expect(body.keys.length).toBeGreaterThanOrEqual(3);
    for (const k of body.keys) {
      expect(Object.keys(k).sort()).toEqual(
        ["activated_at", "alg", "created_at", "kid", "published", "remove_after", "retired_at", "status", "use"]);
    }
    expect(human.stdout).toMatch(/ sig {2}RS256 {2}active/);
    expect(stdout + human.stdout).not.toMatch(/privateJwk|"d"|v1\./);
  });

  it("client create / set --id-token-alg stores the id_token algorithm; show and list display it", async () => {
    const { body } = await adminJson("client", "create", "--name", "AlgRp", "--redirect-uri", "https://alg.example.com/cb",
      "--scope", "openid", "--id-token-alg", "ES256");
    const id = body.client_id as string;
    expect(body.client.id_token_signed_response_alg).toBe("ES256");
    const set = await adminJson("client", "set", id, "--id-token-alg", "EdDSA");
    expect(set.body.client.id_token_signed_response_alg).toBe("EdDSA");
    expect((await db.client.findUniqueOrThrow({ where: { id } })).idTokenSignedResponseAlg).toBe("EdDSA");
    expect((await adminJson("client", "show", id)).body.client.id_token_signed_response_alg).toBe("EdDSA");
    expect((await admin("client", "list")).stdout).toMatch(new RegExp(`${id}  AlgRp .*  EdDSA  openid`));
    const plain = await adminJson("client", "create", "--name", "AlgRp2", "--redirect-uri", "https://alg2.example.com/cb",
      "--scope", "openid");
    expect(plain.body.client.id_token_signed_response_alg).toBe("RS256");
    const bad = await admin("client", "set", id, "--id-token-alg", "none");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--id-token-alg/);
    expect((await db.client.findUniqueOrThrow({ where: { id } })).idTokenSignedResponseAlg).toBe("EdDSA");
  });

  it("keys rotate retires the active key (still published), activates next, publishes a new next, per alg", async () => {
    const before = await db.key.findMany({ where: { use: "sig" } });
    const { body } = await adminJson("keys", "rotate");
    expect(body.use).toBe("sig");
    expect(body.rotated.map((r: { alg: string }) => r.alg)).toEqual(["RS256", "PS256", "ES256", "EdDSA"]);
    const after = await db.key.findMany({ where: { use: "sig" } });
    for (const r of body.rotated as Array<{ alg: string; activated: string; retired: number; next: string }>) {
      const active = before.find((k) => k.alg === r.alg && k.status === "active")!;
      const next = before.filter((k) => k.alg === r.alg && k.status === "next").sort((a, b) => +a.createdAt - +b.createdAt)[0]!;
      expect(r).toMatchObject({ activated: next.kid, retired: 1 });
      const old = after.find((k) => k.kid === active.kid)!;
      expect(old.status).toBe("retired");
      expect(old.removeAfter!.getTime()).toBeGreaterThan(Date.now() + config().ACCESS_TOKEN_TTL * 1000);
      expect(after.find((k) => k.kid === next.kid)!.status).toBe("active");
      expect(after.find((k) => k.kid === r.next)).toMatchObject({ status: "next", alg: r.alg });
      invalidateKeyCache();
      expect((await getKeys()).map((k) => k.kid)).toEqual(expect.arrayContaining([active.kid, next.kid, r.next]));
    }

    const one = await admin("keys", "rotate", "--alg", "ES256");
    expect(one.stdout).toMatch(/^Rotated sig ES256 key: /);
    expect(one.stdout.trim().split("\n")).toHaveLength(1);
    const bad = await admin("keys", "rotate", "--alg", "HS256");
    expect(bad.stderr).toMatch(/--alg/);

    const enc = await admin("keys", "rotate", "--use", "enc");
    expect(enc.stdout).toMatch(/^Rotated enc key/);
    expect(await db.key.count({ where: { use: "enc", status: "active" } })).toBe(1);
  });
});

describe("admin CLI: bad input changes nothing", () => {
  it("refuses each kind of bad input with one line on stderr and exit 1", async () => {
    await createSubscriber({ msisdn: "447700900777", pin: "2580" });
    const taken = await createClient({ name: "Taken", redirectUris: ["https://taken.example.com/cb"],
      scopes: ["openid"] });
    const other = await createClient({ name: "Other", redirectUris: ["https://other.example.com/cb"], scopes: ["openid"] });
    const create = (name: string, uri: string, ...scope: string[]) =>
      ["client", "create", "--name", name, "--redirect-uri", uri, "--scope", ...scope];
    const cases: Array<[string[], RegExp]> = [
      [create("A", "https://a.example.com/cb", "openid", "mc_bogus"), /unknown scope mc_bogus/],
      [create("A", "https://a.example.com/cb", "mc_authn"), /must include openid/],
      [create("A", "https://a.example.com/cb#frag", "openid"), /fragment/],
      [create("A", "http://a.example.com/cb", "openid"), /must use https/],
      [create("A", "not a uri", "openid"), /redirect URI/],
      [create("Taken", "https://b.example.com/cb", "openid"), /already exists/],
      // a lookalike of another client's name (issue 33): created or renamed to
      [create("T a-k_e.N", "https://b.example.com/cb", "openid"),
        new RegExp(`client name "T a-k_e.N" looks like the name of client ${taken.client.id} \\("Taken"\\)`)],
      [["client", "set", other.client.id, "--name", "TAKEN"], /client name "TAKEN" looks like the name of client .*\("Taken"\)/],
      [create("Y0ur Account", "https://b.example.com/cb", "openid"), /looks like the name of client account \("Your account"\)/],
      [create("A", "https://0;sandbox/cb", "openid"), /must have a DNS host name/],
      [["client", "create", "--name", "A", "--scope", "openid"], /required option '--redirect-uri/],
      [["subscriber", "create", "--msisdn", "0447700900778", "--pin", "2580"], /malformed MSISDN/],
      [["subscriber", "create", "--msisdn", "447700900778", "--pin", "1234"], /too weak/],
      [["subscriber", "create", "--msisdn", "447700900777", "--pin", "2580"], /already exists/],
      [["subscriber", "create", "--msisdn", "447700900778", "--pin", "2580", "--attribute", "shoe_size=9"], /unknown attribute "shoe_size"/],
      [["subscriber", "show", "447700900779"], /unknown subscriber/],
    ];
    const before = await snapshot();
    const runs: Run[] = [];
    // A few at a time: each spawn is a full tsx + Prisma start-up.
    for (let i = 0; i < cases.length; i += 4) runs.push(...(await Promise.all(cases.slice(i, i + 4).map(([args]) => admin(...args)))));
    runs.forEach((run, i) => {
      const label = cases[i]![0].join(" ");
      expect(run.code, label).toBe(1);
      expect(run.stdout, label).toBe("");
      expect(run.stderr.trimEnd().split("\n"), label).toHaveLength(1);
      expect(run.stderr, label).toMatch(cases[i]![1]);
    });
    const json = await admin("client", "create", "--name", "A", "--redirect-uri", "https://a.example.com/cb", "--scope", "nope", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: expect.stringMatching(/^unknown scope nope/) });
    expect(await snapshot()).toBe(before);
  });
});

describe("admin domain rules", () => {
  const refuses = (fn: () => unknown, message: RegExp) => expect(fn).toThrow(expect.objectContaining({ name: "AdminError", message: expect.stringMatching(message) }));

  it("redirect URIs: https, loopback http, reverse-domain app schemes; nothing else", () => {
    for (const ok of ["https://rp.example/cb?x=1", "http://localhost:8080/cb", "http://127.0.0.1/cb", "http://[::1]:3000/cb", "com.example.app:/oauth"]) {
      expect(() => checkRedirectUri(ok)).not.toThrow();
    }
    refuses(() => checkRedirectUri("https://rp.example/cb#x"), /fragment/);
    refuses(() => checkRedirectUri("https://*.rp.example/cb"), /wildcards/);
    refuses(() => checkRedirectUri("https://user:pw@rp.example/cb"), /credentials/);
    refuses(() => checkRedirectUri("/relative/cb"), /absolute/);
    refuses(() => checkRedirectUri("javascript:alert(1)"), /must use https/);
    refuses(() => checkRedirectUri("myapp:/cb"), /must use https/);
  });

  it("PIN strength, MSISDN format and attributes", () => {
    for (const weak of ["0000", "1234", "4321", "123456", "987654", "0001", "12a4", "123", "123456789"]) {
      refuses(() => checkPinStrength({ pin: weak, msisdn: "447700900001" }), /PIN/);
    }
    expect(() => checkPinStrength({ pin: "2580", msisdn: "447700900001" })).not.toThrow();
    expect(normaliseMsisdnOrThrow("+447700900001")).toBe("447700900001");
    for (const bad of ["447700 900001", "0447700900001", "1234567890123456", "123456", "++447700900001"]) {
      refuses(() => normaliseMsisdnOrThrow(bad), /malformed MSISDN/);
    }
    expect(parseAttributes(["email_verified=false", "phone_number_alternative=+447700900002", "locale=en-GB"]))
      .toEqual({ emailVerified: false, phoneNumberAlternative: "447700900002", locale: "en-GB" });
    refuses(() => parseAttributes(["birth_date=2001-02-29"]), /birth_date/);
    refuses(() => parseAttributes(["email_verified=yes"]), /true or false/);
    refuses(() => parseAttributes(["given_name=A", "given_name=B"]), /twice/);
    refuses(() => parseAttributes(["given_name"]), /unknown attribute/);
    refuses(() => parseAttributes(["toString=x"]), /unknown attribute/);
  });

  it("public clients have no secret; several hosts need an explicit sector identifier", async () => {
    const { client, clientSecret } = await createClient({
      name: "SPA", redirectUris: ["https://spa.example.com/cb"], scopes: ["openid"], isPublic: true,
    });
    expect(clientSecret).toBeNull();
    expect(await db.client.findUniqueOrThrow({ where: { id: client.id } })).toMatchObject({ isPublic: true, secretHash: null });
    const twoHosts = { redirectUris: ["https://a.example.com/cb", "https://b.example.com/cb"], scopes: ["openid"] };
    await expect(createClient({ name: "Two", ...twoHosts })).rejects.toThrow(/--sector-identifier/);
    const ok = await createClient({ name: "Two", ...twoHosts, sectorIdentifier: "example.com" });
    expect(ok.client.sectorIdentifier).toBe("example.com");
    await expect(updateClient({ clientId: "nope", changes: { scopes: ["openid"] } })).rejects.toBeInstanceOf(AdminError);
  });

  it("deleting a client revokes its tokens; suspending a subscriber ends sessions and revokes tokens", async () => {
    const { client } = await createClient({ name: "Doomed", redirectUris: ["https://d.example.com/cb"], scopes: ["openid"] });
    const s = await createSubscriber({ msisdn: "447700900888", pin: "2580" });
    const token = (tokenHash: string, clientId: string) => db.accessToken.create({
      data: { tokenHash, clientId, subscriberId: s.id, scope: "openid", expiresAt: new Date(Date.now() + 60_000) },
    });
    await token("t-client", client.id);
    await token("t-other", "other-client");
    await db.session.create({
      data: { id: "sess-1", browserIdHash: "b", subscriberId: s.id, authTime: new Date(), acr: "2", amr: "otp", expiresAt: new Date(Date.now() + 60_000) },
    });
    expect(await deleteClient({ clientId: client.id })).toEqual({ revokedTokens: 1 });
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: "t-other" } })).revokedAt).toBeNull();
    await suspendSubscriber({ msisdn: s.msisdn });
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: "t-other" } })).revokedAt).not.toBeNull();
    expect((await db.session.findUniqueOrThrow({ where: { id: "sess-1" } })).endedAt).not.toBeNull();
    expect((await getSubscriberByMsisdn({ msisdn: `+${s.msisdn}` }))?.status).toBe("suspended");
    expect(await getSubscriberByMsisdn({ msisdn: "garbage" })).toBeNull();
  });
});

describe("client names that look alike (issue 33): one validator for create and rename", () => {
  it("renames a client, to a respelling of its own name too, never to a lookalike of another client's", async () => {
    const a = await createClient({ name: "Renamed Bank", redirectUris: ["https://rb.example.com/cb"], scopes: ["openid"] });
    await createClient({ name: "Modern Shop", redirectUris: ["https://ms.example.com/cb"], scopes: ["openid"] });
    expect(await updateClient({ clientId: a.client.id, changes: { name: "RENAMED-BANK" } })).toMatchObject({ name: "RENAMED-BANK" });
    await expect(updateClient({ clientId: a.client.id, changes: { name: "Modem Sh0p" } }))
      .rejects.toThrow(/client name "Modem Sh0p" looks like the name of client \S+ \("Modern Shop"\)/);
    await expect(createClient({ name: "rnodern shop", redirectUris: ["https://x.example.com/cb"], scopes: ["openid"] }))
      .rejects.toThrow(AdminError);
    expect(await db.client.findUniqueOrThrow({ where: { id: a.client.id } }))
      .toMatchObject({ name: "RENAMED-BANK", nameSkeleton: "renamedbank" });
  });
});
