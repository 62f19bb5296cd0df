import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashSecret, verifySecret } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { baseUrl, createTestSubscriber } from "../../support/authorize-support";
import { ACCOUNT_USER_CODE_TRIES } from "@/lib/ciba/user-code-proof";
import { signInToAccount } from "./account-support";

/**
 * The CIBA user code on the account page (issue 20, docs/ciba.md "User code"): set, change and remove it with
 * plain forms (no script), CSRF-checked, in English and French; weak codes and the PIN refused; audited. Every change
 * proved by the current code or the PIN (issue 33), each in its own field: a wrong code is never a wrong PIN.
 */
/** The code_or_pin proof: a group with the two fields, the current code and the PIN. */
const BOTH_FIELDS = [/<legend[^>]*>Confirm it is you with one of these<\/legend>/,
  /<label for="user-code-current"[^>]*>Your current code<\/label><input[^>]*id="user-code-current"[^>]*name="current_code"/,
  /<label for="user-code-pin"[^>]*>or your PIN<\/label><input[^>]*id="user-code-pin"[^>]*name="current_pin"/];
const location = (res: Response) => new URL(res.headers.get("location")!, baseUrl);

describe("the account page's user code section", () => {
  it("sets, changes and removes the user code; refuses weak codes and the PIN; audits each change", async () => {
    const s = await createTestSubscriber();
    const { browser, page, csrf } = await signInToAccount(s);
    expect(page.html).toContain("Code for sign-in requests");
    expect(page.html).toContain("You have no code");
    expect(page.html).toContain(`action="/account/user-code" method="post"`);
    expect(page.html).not.toContain("Remove the code");
    // No code yet: setting one asks for the PIN.
    expect(page.html).toMatch(/<label for="user-code-current"[^>]*>Your PIN<\/label>/);
    const stored = async () => (await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).userCodeHash;

    const post = (fields: Record<string, string>) =>
      browser.post("/account/user-code", { csrf_token: csrf, display: "page", ui_locales: "en", ...fields });

    // Refused: no CSRF token, weak, the PIN, not digits. Nothing stored.
    const forged = await browser.post("/account/user-code", { user_code: "73915", current_pin: s.pin });
    expect(forged.status).toBe(403);
    for (const [code, e] of [["1234", "user_code_invalid"], ["0000", "user_code_invalid"], ["abcd", "user_code_invalid"],
      ["", "user_code_invalid"], [s.pin, "user_code_same_as_pin"]]) {
      const res = await post({ user_code: code!, current_pin: s.pin });
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get("e"), code).toBe(e);
    }
    expect(await stored()).toBeNull();

    const set = await post({ user_code: "73915", current_pin: s.pin });
    expect(set.status).toBe(303);
    expect(location(set).searchParams.get("done")).toBe("user_code_set");
    expect(await verifySecret("73915", (await stored())!)).toBe(true);
    const after = await browser.follow(location(set).toString());
    expect(after.html).toContain("Your code is saved.");
    expect(after.html).toContain("You have a code");
    expect(after.html).toContain("Remove the code");
    expect(after.html).not.toContain("73915");
    for (const field of BOTH_FIELDS) expect(after.html).toMatch(field);

    // Changed with the current code, removed with the PIN.
    const changed = await post({ user_code: "604182", current_code: "73915" });
    expect(location(changed).searchParams.get("done")).toBe("user_code_set");
    expect(await verifySecret("604182", (await stored())!)).toBe(true);

    const removed = await post({ remove: "1", current_pin: s.pin });
    expect(location(removed).searchParams.get("done")).toBe("user_code_removed");
    expect(await stored()).toBeNull();
    const twice = await post({ remove: "1", current_pin: s.pin });
    expect(location(twice).searchParams.get("e")).toBe("not_found");

    const events = await db.auditEvent.findMany({ where: { type: "user_code_changed", subscriberRef: pseudonymiseSubscriber(s.id) },
      orderBy: { at: "asc" } });
    expect(events.map((e) => JSON.parse(e.detail!).change)).toEqual(["set", "set", "clear"]);
    expect(events.every((e) => !e.detail!.includes("73915") && !e.detail!.includes("604182"))).toBe(true);
  });

  it("refuses a change or removal without the current code or PIN, or with a wrong one (issue 33)", async () => {
    const s = await createTestSubscriber();
    await db.subscriber.update({ where: { id: s.id }, data: { userCodeHash: await hashSecret("73915") } });
    const { browser, page, csrf } = await signInToAccount(s);
    for (const field of BOTH_FIELDS) expect(page.html).toMatch(field);
    const post = (fields: Record<string, string>) =>
      browser.post("/account/user-code", { csrf_token: csrf, display: "page", ui_locales: "en", ...fields });
    const row = () => db.subscriber.findUniqueOrThrow({ where: { id: s.id } });

    // Each refusal says what was wrong; the first three typed nothing the change asks for (the old single field
    // `current_secret` is no longer read) and spend nothing.
    const refusedPosts: Array<[Record<string, string>, string]> = [
      [{ user_code: "604182" }, "current_secret_missing"],
      [{ user_code: "604182", current_code: "", current_pin: "" }, "current_secret_missing"],
      [{ remove: "1", current_secret: s.pin }, "current_secret_missing"],
      [{ user_code: "604182", current_code: "48261" }, "current_code_wrong"],
      [{ remove: "1", current_pin: "48261" }, "current_pin_wrong"],
      [{ remove: "1", current_code: "48261", current_pin: "48262" }, "current_secret_wrong"],
    ];
    for (const [fields, e] of refusedPosts) {
      const res = await post(fields);
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get("e"), JSON.stringify(fields)).toBe(e);
      expect(location(res).searchParams.get("done")).toBeNull();
    }
    expect(await verifySecret("73915", (await row()).userCodeHash!)).toBe(true);
    const refused = await browser.follow(location(await post({ remove: "1", current_code: "5" })).toString());
    expect(refused.html).toContain("Your current code was not right. Nothing was changed.");
    expect(refused.html).toContain("ask customer care to remove the code");
    // Only the wrong PINs count under the PIN's own counter (reserved before the check): two.
    expect((await row()).failedPinAttempts).toBe(2);
    expect(await db.auditEvent.count({ where: { type: "user_code_changed", subscriberRef: pseudonymiseSubscriber(s.id) } }))
      .toBe(0);

    // The right current code changes it (its fourth try of five), and never spends a PIN try.
    const changed = await post({ user_code: "604182", current_code: "73915" });
    expect(location(changed).searchParams.get("done")).toBe("user_code_set");
    expect((await row()).failedPinAttempts).toBe(2);
    // The old code no longer proves anything; the PIN does (and clears the PIN's failures).
    expect(location(await post({ remove: "1", current_code: "73915" })).searchParams.get("e")).toBe("current_code_wrong");
    const removed = await post({ remove: "1", current_pin: s.pin });
    expect(location(removed).searchParams.get("done")).toBe("user_code_removed");
    expect((await row())).toMatchObject({ userCodeHash: null, failedPinAttempts: 0 });
  });

  it("a wrong user code never counts as a PIN failure: the code's tries run out, the PIN stays usable (issue 33)",
    async () => {
      const s = await createTestSubscriber();
      await db.subscriber.update({ where: { id: s.id }, data: { userCodeHash: await hashSecret("73915") } });
      const { browser, csrf } = await signInToAccount(s);
      const post = (fields: Record<string, string>) =>
        browser.post("/account/user-code", { csrf_token: csrf, display: "page", ui_locales: "en", ...fields });
      const row = () => db.subscriber.findUniqueOrThrow({ where: { id: s.id } });
      // A subscriber fumbling their old code: every try of the budget wrong, then more.
      for (let i = 0; i < ACCOUNT_USER_CODE_TRIES.limit; i++) {
        expect(location(await post({ user_code: "604182", current_code: `4826${i}` })).searchParams.get("e"))
          .toBe("current_code_wrong");
      }
      const over = await post({ user_code: "604182", current_code: "73915" });
      expect(location(over).searchParams.get("e")).toBe("current_secret_locked");
      // Not one PIN failure, no PIN lockout: level-3 sign-ins elsewhere are untouched.
      expect(await row()).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
      const signIn = await signInToAccount(s, { query: "?level=3" });
      expect(signIn.page.html).toContain("Signed in at level 3.");
      // And the PIN proves the change.
      const changed = await post({ user_code: "604182", current_pin: s.pin });
      expect(location(changed).searchParams.get("done")).toBe("user_code_set");
    });

  it("a subscriber with neither a code nor a PIN is asked nothing more than the fresh sign-in", async () => {
    const s = await createTestSubscriber();
    await db.subscriber.update({ where: { id: s.id }, data: { pinHash: null } });
    const { browser, page, csrf } = await signInToAccount(s);
    expect(page.html).not.toMatch(/name="current_(code|pin|secret)"/);
    const res = await browser.post("/account/user-code", { csrf_token: csrf, user_code: "73915" });
    expect(location(res).searchParams.get("done")).toBe("user_code_set");
    // Now that a code is set, its change asks for it.
    const next = await browser.follow(location(res).toString());
    expect(next.html).toMatch(/<label for="user-code-current"[^>]*>Your current code<\/label><input[^>]*name="current_code"/);
    expect(next.html).not.toContain('name="current_pin"');
    const without = await browser.post("/account/user-code", { csrf_token: csrf, remove: "1" });
    expect(location(without).searchParams.get("e")).toBe("current_secret_missing");
    // A PIN field the page did not offer is ignored: no PIN, nothing to check it against.
    const pinOnly = await browser.post("/account/user-code", { csrf_token: csrf, remove: "1", current_pin: "48261" });
    expect(location(pinOnly).searchParams.get("e")).toBe("current_secret_missing");
  });

  it("speaks French", async () => {
    const s = await createTestSubscriber();
    const { page } = await signInToAccount(s, { query: "?ui_locales=fr" });
    expect(page.html).toContain("Code pour les demandes de connexion");
    expect(page.html).toContain("Enregistrer le code");
    expect(page.html).toMatch(/<label for="user-code-current"[^>]*>Votre code PIN<\/label>/);
  });
});
