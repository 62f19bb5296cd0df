import { describe, expect, it } from "vitest";
import { config } from "../config";
import { handleLanguageSwitch, languageSwitchHref, safeBackPath } from "./switch-language";

describe("safeBackPath: the switch comes back only to a path of this service", () => {
  it("keeps a path and its query, drops the fragment", () => {
    expect(safeBackPath("/interaction/abc?step=msisdn&e=code_invalid")).toBe("/interaction/abc?step=msisdn&e=code_invalid");
    expect(safeBackPath("/handset")).toBe("/handset");
    expect(safeBackPath("/handset#x")).toBe("/handset");
    expect(safeBackPath("/a/../handset")).toBe("/handset");
  });

  it("refuses every other origin (no open redirect), odd characters and the switch itself", () => {
    for (const evil of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "\\\\evil.example", "/%2F%2Fevil.example",
      "javascript:alert(1)", "evil.example", " /handset", "/hand set", "/a\nb", "/a\tb", "", null, undefined,
      "/language?lang=fr&back=/x", "/" + "a".repeat(2000), "///evil.example", "/.//evil.example"]) {
      const back = safeBackPath(evil);
      expect(new URL(back, "https://op.example").origin, String(evil)).toBe("https://op.example");
      expect(back.startsWith("//"), String(evil)).toBe(false);
    }
    expect(safeBackPath("//evil.example/x")).toBe("/");
    expect(safeBackPath("https://evil.example/")).toBe("/");
    expect(safeBackPath("/\\evil.example")).toBe("/");
    expect(safeBackPath("/language?lang=fr")).toBe("/");
  });
});

describe("GET /language (handleLanguageSwitch)", () => {
  const base = config().ISSUER.replace(/\/$/, "");
  const get = (query: string) => handleLanguageSwitch(new Request(`${base}/language?${query}`));

  it("keeps a supported language in the lang cookie and answers 303 back to the screen", () => {
    const res = get("lang=fr&back=%2Finteraction%2Fabc%3Fstep%3Dmsisdn");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${base}/interaction/abc?step=msisdn`);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^lang=fr; Path=\/; SameSite=Lax; Max-Age=\d+/);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("never redirects elsewhere and sets nothing for an unknown language", () => {
    const res = get("lang=de%3B%20Domain%3Devil&back=https%3A%2F%2Fevil.example%2F");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${base}/`);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(get("back=//evil.example").headers.get("location")).toBe(`${base}/`);
  });

  it("links with the back path encoded", () => {
    expect(languageSwitchHref("fr", "/interaction/abc?e=x&y=1")).toMatch(/\/language\?lang=fr&back=%2Finteraction%2Fabc%3Fe%3Dx%26y%3D1$/);
  });
});
