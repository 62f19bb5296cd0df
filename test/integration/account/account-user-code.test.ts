import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashSecret, verifySecret } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { baseUrl, createTestSubscriber } from "../../support/authorize-support";
import { signInToAccount } from "./account-support";

/**
 * The CIBA user code on the account page (issue 20, docs/ciba.md "User code"): set, change and remove it with
 * plain forms (no script), CSRF-checked, in English and French; weak codes and the PIN refused; audited. Every change
 * proved by the current code or the PIN (issue 33).
 */
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
    const forged = await browser.post("/account/user-code", { user_code: "73915", current_secret: s.pin });
    expect(forged.status).toBe(403);
    for (const [code, e] of [["1234", "user_code_invalid"], ["0000", "user_code_invalid"], ["abcd", "user_code_invalid"],
      ["", "user_code_invalid"], [s.pin, "user_code_same_as_pin"]]) {
      const res = await post({ user_code: code!, current_secret: s.pin });
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get("e"), code).toBe(e);
    }
    expect(await stored()).toBeNull();

    const set = await post({ user_code: "73915", current_secret: s.pin });
    expect(set.status).toBe(303);
    expect(location(set).searchParams.get("done")).toBe("user_code_set");
    expect(await verifySecret("73915", (await stored())!)).toBe(true);
    const after = await browser.follow(location(set).toString());
    expect(after.html).toContain("Your code is saved.");
    expect(after.html).toContain("You have a code");
    expect(after.html).toContain("Remove the code");
    expect(after.html).not.toContain("73915");
    expect(after.html).toMatch(/<label for="user-code-current"[^>]*>Your current code, or your PIN<\/label>/);

    // Changed with the current code, removed with the PIN.
    const changed = await post({ user_code: "604182", current_secret: "73915" });
    expect(location(changed).searchParams.get("done")).toBe("user_code_set");
    expect(await verifySecret("604182", (await stored())!)).toBe(true);

    const removed = await post({ remove: "1", current_secret: s.pin });
    expect(location(removed).searchParams.get("done")).toBe("user_code_removed");
    expect(await stored()).toBeNull();
    const twice = await post({ remove: "1", current_secret: s.pin });
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
    expect(page.html).toMatch(/<label for="user-code-current"[^>]*>Your current code, or your PIN<\/label>/);
    const post = (fields: Record<string, string>) =>
      browser.post("/account/user-code", { csrf_token: csrf, display: "page", ui_locales: "en", ...fields });
    const row = () => db.subscriber.findUniqueOrThrow({ where: { id: s.id } });

    const refusedPosts: Array<Record<string, string>> = [{ user_code: "604182" }, { user_code: "604182", current_secret: "" },
      { user_code: "604182", current_secret: "48261" }, { remove: "1" }, { remove: "1", current_secret: "48261" }];
    for (const fields of refusedPosts) {
      const res = await post(fields);
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get("e"), JSON.stringify(fields)).toBe("current_secret_wrong");
      expect(location(res).searchParams.get("done")).toBeNull();
    }
    expect(await verifySecret("73915", (await row()).userCodeHash!)).toBe(true);
    const refused = await browser.follow(location(await post({ remove: "1", current_secret: "5" })).toString());
    expect(refused.html).toContain("Your current code or PIN was not right. Nothing was changed.");
    // A wrong entry is also a wrong PIN, under the PIN's own counter (reserved before the check); an empty one costs
    // nothing.
    expect((await row()).failedPinAttempts).toBe(3);
    expect(await db.auditEvent.count({ where: { type: "user_code_changed", subscriberRef: pseudonymiseSubscriber(s.id) } }))
      .toBe(0);

    // The right current code changes it, and never spends a PIN try.
    const changed = await post({ user_code: "604182", current_secret: "73915" });
    expect(location(changed).searchParams.get("done")).toBe("user_code_set");
    expect((await row()).failedPinAttempts).toBe(3);
    // The old code no longer proves anything; the PIN does (and clears the PIN's failures).
    expect(location(await post({ remove: "1", current_secret: "73915" })).searchParams.get("e")).toBe("current_secret_wrong");
    const removed = await post({ remove: "1", current_secret: s.pin });
    expect(location(removed).searchParams.get("done")).toBe("user_code_removed");
    expect((await row())).toMatchObject({ userCodeHash: null, failedPinAttempts: 0 });
  });

  it("a subscriber with neither a code nor a PIN is asked nothing more than the fresh sign-in", async () => {
    const s = await createTestSubscriber();
    await db.subscriber.update({ where: { id: s.id }, data: { pinHash: null } });
    const { browser, page, csrf } = await signInToAccount(s);
    expect(page.html).not.toContain('name="current_secret"');
    const res = await browser.post("/account/user-code", { csrf_token: csrf, user_code: "73915" });
    expect(location(res).searchParams.get("done")).toBe("user_code_set");
    // Now that a code is set, its change asks for it.
    const next = await browser.follow(location(res).toString());
    expect(next.html).toMatch(/<label for="user-code-current"[^>]*>Your current code<\/label>/);
    const without = await browser.post("/account/user-code", { csrf_token: csrf, remove: "1" });
    expect(location(without).searchParams.get("e")).toBe("current_secret_wrong");
  });

  it("speaks French", async () => {
    const s = await createTestSubscriber();
    const { page } = await signInToAccount(s, { query: "?ui_locales=fr" });
    expect(page.html).toContain("Code pour les demandes de connexion");
    expect(page.html).toContain("Enregistrer le code");
  });
});
