import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashSecret, verifySecret } from "@/lib/crypto";
import { ACCOUNT_USER_CODE_TRIES } from "@/lib/ciba/user-code-proof";
import { createTestSubscriber } from "../../support/authorize-support";
import { startServer, type RunningServer } from "../../support/server";
import { signInToAccount } from "./account-support";

/**
 * The tries at the current user code on the account page (issue 33, lib/ciba/user-code-proof.ts) are reserved
 * before they are checked: forty posts at once, spread over the two workers of a WORKERS=2 server on the suite's
 * database, get exactly ACCOUNT_USER_CODE_TRIES checks, however they interleave; and a wrong user code, however many
 * arrive at once, never counts as a PIN failure.
 */
let cluster: RunningServer;

beforeAll(async () => {
  cluster = await startServer({ name: "account-user-code-race", databaseUrl: process.env.DATABASE_URL,
    env: { WORKERS: "2" } });
}, 120_000);
afterAll(() => cluster?.stop());

describe("the current user code's tries", () => {
  it("forty simultaneous changes with the right current code: exactly the budget is checked, the rest refused", async () => {
    const s = await createTestSubscriber();
    // No PIN: the user code is the only proof, so every post beyond the budget must be refused unchecked.
    await db.subscriber.update({ where: { id: s.id }, data: { userCodeHash: await hashSecret("73915"), pinHash: null } });
    const { browser, csrf } = await signInToAccount(s);
    const post = () => fetch(`${cluster.baseUrl}/account/user-code`, {
      method: "POST", redirect: "manual",
      body: new URLSearchParams({ csrf_token: csrf, current_code: "73915", user_code: "73915" }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: cluster.baseUrl,
        cookie: browser.cookieHeader() },
    });
    const answers = await Promise.all(Array.from({ length: 40 }, post));
    const outcomes = answers.map((res) => {
      expect(res.status).toBe(303);
      const q = new URL(res.headers.get("location")!).searchParams;
      return q.get("done") ?? q.get("e");
    });
    expect(outcomes.filter((o) => o === "user_code_set")).toHaveLength(ACCOUNT_USER_CODE_TRIES.limit);
    expect(outcomes.filter((o) => o === "current_secret_locked")).toHaveLength(40 - ACCOUNT_USER_CODE_TRIES.limit);
    const row = await db.subscriber.findUniqueOrThrow({ where: { id: s.id } });
    expect(await verifySecret("73915", row.userCodeHash!)).toBe(true);
  });

  it("forty simultaneous wrong current codes: exactly the budget checked, not one PIN failure", async () => {
    const s = await createTestSubscriber();
    // A code and a PIN: the PIN's field is left empty, as a subscriber fumbling their code leaves it.
    await db.subscriber.update({ where: { id: s.id }, data: { userCodeHash: await hashSecret("73915") } });
    const { browser, csrf } = await signInToAccount(s);
    const post = (i: number) => fetch(`${cluster.baseUrl}/account/user-code`, {
      method: "POST", redirect: "manual",
      body: new URLSearchParams({ csrf_token: csrf, current_code: String(48000 + i), current_pin: "", user_code: "604182" }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: cluster.baseUrl,
        cookie: browser.cookieHeader() },
    });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(i)));
    const outcomes = answers.map((res) => {
      expect(res.status).toBe(303);
      return new URL(res.headers.get("location")!).searchParams.get("e");
    });
    expect(outcomes.filter((o) => o === "current_code_wrong")).toHaveLength(ACCOUNT_USER_CODE_TRIES.limit);
    expect(outcomes.filter((o) => o === "current_secret_locked")).toHaveLength(40 - ACCOUNT_USER_CODE_TRIES.limit);
    const row = await db.subscriber.findUniqueOrThrow({ where: { id: s.id } });
    expect(row).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
    expect(await verifySecret("73915", row.userCodeHash!)).toBe(true);
  });
});
