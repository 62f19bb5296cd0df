import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { verifySecret } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { baseUrl, createTestSubscriber } from "../../support/authorize-support";
import { signInToAccount } from "./account-support";

/**
 * The CIBA user code on the account page (issue 20, docs/ciba.md "User code"): set, change and remove it with
 * plain forms (no script), CSRF-checked, in English and French; weak codes and the PIN refused; audited.
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
    const stored = async () => (await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).userCodeHash;

    const post = (fields: Record<string, string>) =>
      browser.post("/account/user-code", { csrf_token: csrf, display: "page", ui_locales: "en", ...fields });

    // Refused: no CSRF token, weak, the PIN, not digits. Nothing stored.
    const forged = await browser.post("/account/user-code", { user_code: "73915" });
    expect(forged.status).toBe(403);
    for (const [code, e] of [["1234", "user_code_invalid"], ["0000", "user_code_invalid"], ["abcd", "user_code_invalid"],
      ["", "user_code_invalid"], [s.pin, "user_code_same_as_pin"]]) {
      const res = await post({ user_code: code! });
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get("e"), code).toBe(e);
    }
    expect(await stored()).toBeNull();

    const set = await post({ user_code: "73915" });
    expect(set.status).toBe(303);
    expect(location(set).searchParams.get("done")).toBe("user_code_set");
    expect(await verifySecret("73915", (await stored())!)).toBe(true);
    const after = await browser.follow(location(set).toString());
    expect(after.html).toContain("Your code is saved.");
    expect(after.html).toContain("You have a code");
    expect(after.html).toContain("Remove the code");
    expect(after.html).not.toContain("73915");

    const changed = await post({ user_code: "604182" });
    expect(location(changed).searchParams.get("done")).toBe("user_code_set");
    expect(await verifySecret("604182", (await stored())!)).toBe(true);

    const removed = await post({ remove: "1" });
    expect(location(removed).searchParams.get("done")).toBe("user_code_removed");
    expect(await stored()).toBeNull();
    const twice = await post({ remove: "1" });
    expect(location(twice).searchParams.get("e")).toBe("not_found");

    const events = await db.auditEvent.findMany({ where: { type: "user_code_changed", subscriberRef: pseudonymiseSubscriber(s.id) },
      orderBy: { at: "asc" } });
    expect(events.map((e) => JSON.parse(e.detail!).change)).toEqual(["set", "set", "clear"]);
    expect(events.every((e) => !e.detail!.includes("73915") && !e.detail!.includes("604182"))).toBe(true);
  });

  it("speaks French", async () => {
    const s = await createTestSubscriber();
    const { page } = await signInToAccount(s, { query: "?ui_locales=fr" });
    expect(page.html).toContain("Code pour les demandes de connexion");
    expect(page.html).toContain("Enregistrer le code");
  });
});
