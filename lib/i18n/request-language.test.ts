import { describe, expect, it } from "vitest";
import { acceptLanguageTags, requestMessages } from "./request-language";

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
