import { describe, expect, it } from "vitest";
import { needsConsent } from "../oauth/authorize/needs-consent";
import { accountOptions, accountQuery } from "./account-options";
import { loginCookie, readLoginCookie } from "./account-cookies";

describe("account page options", () => {
  it("takes a known display and language, and falls back on anything else", () => {
    expect(accountOptions({ display: "wap", uiLocales: "fr-CA", acceptLanguage: null })).toMatchObject({ display: "wap", lang: "fr" });
    expect(accountOptions({ display: "<script>", uiLocales: "xx", acceptLanguage: "fr;q=0.5, de" }))
      .toMatchObject({ display: "page", lang: "fr" });
    expect(accountOptions({ display: undefined, uiLocales: undefined, acceptLanguage: null })).toMatchObject({ display: "page", lang: "en" });
    expect(accountQuery({ display: "touch", lang: "fr" }, { done: "removed" })).toBe("?display=touch&ui_locales=fr&done=removed");
  });
});

describe("the account login cookie", () => {
  const login = { state: "s".repeat(43), verifier: "v".repeat(43), display: "popup", lang: "en", startedAt: 1_750_000_000 };
  it("reads back what it wrote", () => {
    const header = loginCookie(login).split(";")[0]!;
    expect(readLoginCookie(header)).toEqual(login);
  });
  it("refuses a forged or malformed value", () => {
    const sv = `${"s".repeat(43)}.${"v".repeat(43)}`;
    for (const value of ["", "a.b.c.d.1", `${sv}.evil.en.1`, `${sv}.page.e"n.1`, `${sv}.page.1`, `${sv}.page.en`,
      `${sv}.page.en.-1`, `${sv}.page.en.1e9`, `${sv}.page.en.1.2`]) {
      expect(readLoginCookie(`account_login=${value}`), value).toBeNull();
    }
  });
});

describe("consent for the account page's own client", () => {
  it("is never asked, even with prompt=consent, while other clients are asked as before", () => {
    const params = { clientId: "account", prompt: ["consent"], scopes: ["openid"] };
    expect(needsConsent({ params, grantedScopes: null, sessionId: "s" })).toBe(false);
    expect(needsConsent({ params: { ...params, clientId: "other" }, grantedScopes: null, sessionId: "s" })).toBe(true);
  });
});
