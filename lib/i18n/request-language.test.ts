import { describe, expect, it } from "vitest";
import { acceptLanguageTags, chosenLanguage, requestMessages, screenLanguages } from "./request-language";

describe("acceptLanguageTags", () => {
  it("orders by q-value, then by position, and drops q=0, * and malformed tags", () => {
    expect(acceptLanguageTags("en;q=0.5, fr-CA, *;q=0.1, de;q=0, x y, it;q=0.5")).toEqual(["fr-CA", "en", "it"]);
    expect(acceptLanguageTags(null)).toEqual([]);
    expect(acceptLanguageTags("")).toEqual([]);
  });
});

describe("requestMessages", () => {
  it("prefers ui_locales, then Accept-Language, then English", () => {
    const r = (url: string, al?: string) =>
      requestMessages(new Request(url, al ? { headers: { "accept-language": al } } : {})).lang;
    expect(r("https://op.example/a?ui_locales=fr", "en")).toBe("fr");
    expect(r("https://op.example/a?ui_locales=en", "fr")).toBe("en");
    expect(r("https://op.example/a?ui_locales=de", "fr")).toBe("fr");
    expect(r("https://op.example/a")).toBe("en");
    expect(requestMessages(undefined).lang).toBe("en");
  });
});

describe("the language chosen with the switch (lang cookie)", () => {
  it("wins over ui_locales and Accept-Language; an unknown or malformed value is ignored", () => {
    expect(chosenLanguage("a=1; lang=fr; b=2")).toBe("fr");
    expect(chosenLanguage("lang=de")).toBeUndefined();
    expect(chosenLanguage("lang=fr-x")).toBeUndefined();
    expect(chosenLanguage(null)).toBeUndefined();
    expect(screenLanguages({ cookie: "lang=en", uiLocales: ["fr"], acceptLanguage: "fr" })[0]).toBe("en");
    expect(screenLanguages({ cookie: null, uiLocales: [], acceptLanguage: "fr-FR,en;q=0.5" })).toEqual(["fr-FR", "en"]);
    expect(screenLanguages({ cookie: null, uiLocales: ["de"], acceptLanguage: "fr" })).toEqual(["de", "fr"]);
    const req = new Request("https://op.example/a?ui_locales=fr", { headers: { cookie: "lang=en", "accept-language": "fr" } });
    expect(requestMessages(req).lang).toBe("en");
  });
});
