import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exportJWK, generateKeyPair } from "jose";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, TEST_SECRETS } from "../../support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { verifySecret } from "@/lib/crypto";
import { getKeys } from "@/lib/keys/key-store";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * The operator's CIBA surfaces in the admin CLI (docs/ciba.md "Operator options"): a client's backchannel options
 * on `client create` and `client set`, their validation errors (nothing changed), `client show`; and the
 * subscriber's user code (`subscriber user-code set|clear`, read from standard input, scrypt-hashed, audited).
 */
const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
let databaseUrl = "";
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  databaseUrl = freshDatabase("ciba-admin");
  process.env.DATABASE_URL = databaseUrl;
  expect(config().DATABASE_URL).toBe(databaseUrl);
  await getKeys();
});

type Run = { code: number; stdout: string; stderr: string };

function admin(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(TSX, ["scripts/admin.ts", ...args], {
      cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl },
    }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
    child.stdin?.end(stdin ?? "");
  });
}

async function adminJson(args: string[], stdin?: string) {
  const run = await admin([...args, "--json"], stdin);
  expect(run.stdout.trim().split("\n"), run.stderr).toHaveLength(1);
  return { ...run, body: JSON.parse(run.stdout) as Record<string, any> };
}

const create = (name: string, ...extra: string[]) => adminJson(["client", "create", "--name", name,
  "--redirect-uri", `https://${name.toLowerCase()}.example.com/cb`, "--scope", "openid", "mc_authn", ...extra]);

describe("admin CLI: a client's CIBA options", () => {
  let clientId = "";

  it("client create --grant-types … --ciba-mode ping --notification-endpoint … stores and shows them", async () => {
    const { code, body } = await create("Callcentre", "--grant-types", "authorization_code", CIBA_GRANT_TYPE,
      "--ciba-mode", "ping", "--notification-endpoint", "https://callcentre.example.com/ciba", "--user-code-parameter");
    expect(code, JSON.stringify(body)).toBe(0);
    clientId = body.client_id;
    expect(body.client).toMatchObject({
      grant_types: ["authorization_code", CIBA_GRANT_TYPE], backchannel_token_delivery_mode: "ping",
      backchannel_client_notification_endpoint: "https://callcentre.example.com/ciba",
      backchannel_authentication_request_signing_alg: null, backchannel_user_code_parameter: true,
    });
    expect(await db.client.findUniqueOrThrow({ where: { id: clientId } })).toMatchObject({
      backchannelTokenDeliveryMode: "ping", backchannelClientNotificationEndpoint: "https://callcentre.example.com/ciba",
      backchannelUserCodeParameter: true,
    });
    const human = await admin(["client", "show", clientId]);
    expect(human.stdout).toContain("backchannel_token_delivery_mode: ping");
    expect(human.stdout).toContain("backchannel_client_notification_endpoint: https://callcentre.example.com/ciba");
  });

  it("client set changes them, --bc-signing-alg needs keys, none clears", async () => {
    const noKeys = await adminJson(["client", "set", clientId, "--bc-signing-alg", "PS256"]);
    expect(noKeys.code).toBe(1);
    expect(noKeys.body.error).toMatch(/need the client's public keys/);

    const { publicKey } = await generateKeyPair("PS256");
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "PS256" }] });
    const signed = await adminJson(["client", "set", clientId, "--jwks", jwks, "--bc-signing-alg", "PS256",
      "--ciba-mode", "push", "--no-user-code-parameter"]);
    expect(signed.code, JSON.stringify(signed.body)).toBe(0);
    expect(signed.body.client).toMatchObject({ backchannel_token_delivery_mode: "push",
      backchannel_authentication_request_signing_alg: "PS256", backchannel_user_code_parameter: false });

    const cleared = await adminJson(["client", "set", clientId, "--bc-signing-alg", "none", "--ciba-mode", "poll",
      "--notification-endpoint", "none"]);
    expect(cleared.code, JSON.stringify(cleared.body)).toBe(0);
    expect(cleared.body.client).toMatchObject({ backchannel_token_delivery_mode: "poll",
      backchannel_client_notification_endpoint: null, backchannel_authentication_request_signing_alg: null });
  });

  it("refuses bad values with one error line and changes nothing", async () => {
    const before = JSON.stringify(await db.client.findMany({ orderBy: { id: "asc" } }));
    const cases: Array<[string[], RegExp]> = [
      [["client", "set", clientId, "--ciba-mode", "ping"], /ping mode needs a backchannel client notification endpoint/],
      [["client", "set", clientId, "--ciba-mode", "pull"], /pull.*(poll, ping, push|Allowed choices)/i],
      [["client", "set", clientId, "--notification-endpoint", "http://callcentre.example.com/n"], /must use https/],
      [["client", "set", clientId, "--notification-endpoint", "https://callcentre.example.com/n#frag"], /fragment/],
      [["client", "set", clientId, "--bc-signing-alg", "HS256"], /HS256.*(Allowed choices)/i],
      [["client", "create", "--name", "Kiosk", "--redirect-uri", "https://kiosk.example.com/cb", "--scope", "openid",
        "--public", "--grant-types", "authorization_code", CIBA_GRANT_TYPE], /needs a confidential client/],
      [["client", "create", "--name", "Till", "--redirect-uri", "https://till.example.com/cb", "--scope", "openid",
        "--grant-types", CIBA_GRANT_TYPE, "--ciba-mode", "push"], /push mode needs/],
    ];
    for (const [args, message] of cases) {
      const run = await adminJson(args);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.body.error, args.join(" ")).toMatch(message);
    }
    expect(JSON.stringify(await db.client.findMany({ orderBy: { id: "asc" } }))).toBe(before);
  });
});

describe("admin CLI: the subscriber's user code", () => {
  it("user-code set reads standard input, stores scrypt only, audits; weak codes and the PIN are refused", async () => {
    const s = await createTestSubscriber();
    const set = await adminJson(["subscriber", "user-code", "set", s.msisdn], "73915\n");
    expect(set.code, JSON.stringify(set.body)).toBe(0);
    expect(set.body).toEqual({ msisdn: s.msisdn, user_code_set: true });
    expect(set.stdout).not.toContain("73915");
    const row = await db.subscriber.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.userCodeHash).not.toContain("73915");
    expect(await verifySecret("73915", row.userCodeHash!)).toBe(true);
    const audit = await db.auditEvent.findFirst({ where: { type: "admin_subscriber_user_code_set" } });
    expect(audit?.detail).toContain("subscriber user-code set");

    for (const [code, message] of [["1234", /sequence/], ["7777", /same/], ["12a4", /4 to 8 digits/],
      [s.pin, /must not be the PIN/], ["", /no user code given/]] as const) {
      const run = await adminJson(["subscriber", "user-code", "set", s.msisdn], `${code}\n`);
      expect(run.code, code).toBe(1);
      expect(run.body.error, code).toMatch(message);
    }
    // Still the first code.
    expect(await verifySecret("73915", (await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).userCodeHash!)).toBe(true);

    const clear = await adminJson(["subscriber", "user-code", "clear", s.msisdn]);
    expect(clear.body).toEqual({ msisdn: s.msisdn, user_code_set: false, cleared: true });
    expect((await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).userCodeHash).toBeNull();
    expect(await db.auditEvent.count({ where: { type: "admin_subscriber_user_code_clear" } })).toBe(1);
    const again = await admin(["subscriber", "user-code", "clear", s.msisdn]);
    expect(again.stdout).toMatch(/had no user code; nothing changed/);

    const unknown = await adminJson(["subscriber", "user-code", "set", "447700900999"], "73915\n");
    expect(unknown.code).toBe(1);
    expect(unknown.body.error).toMatch(/unknown subscriber/);
  });
});
