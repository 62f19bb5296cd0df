import { describe, expect, it } from "vitest";
import { en } from "./en";
import { FRENCH_SPACE, frenchTypography, getMessages } from "./get-messages";

/** Every text of a catalogue with its key path: string values, and what each message function returns. */
function texts(value: unknown, path = ""): Array<[string, string]> {
  if (typeof value === "string") return [[path, value]];
  if (typeof value === "function") {
    const f = value as (...args: unknown[]) => unknown;
    const out = f(...Array.from({ length: Math.max(f.length, 2) }, () => 2));
    return typeof out === "string" ? [[`${path}()`, out]] : [];
  }
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => texts(v, path ? `${path}.${k}` : k));
  }
  return [];
}

describe("French typography over the whole catalogue (get-messages.ts)", () => {
  const fr = getMessages(["fr"]);

  it("has no plain space before : ; ? ! » nor after «, in any text or function result but the SMS", () => {
    const all = texts(fr).filter(([path]) => !path.startsWith("sms."));
    expect(all.length).toBeGreaterThan(150);
    const bad = all.filter(([, s]) => /[ \t][:;?!»]|«[ \t]/.test(s));
    expect(bad).toEqual([]);
    // The catalogue does have such signs: they now follow a no-break space.
    expect(all.some(([, s]) => s.includes(`${FRENCH_SPACE}:`))).toBe(true);
    expect(fr.code.pinHelp).toContain(`renforcée${FRENCH_SPACE}: saisissez`);
    expect(fr.handset.notYou).toContain(`vous${FRENCH_SPACE}? Refusez${FRENCH_SPACE}:`);
    expect(fr.pinRetry.codeKept(3)).toContain(`valable${FRENCH_SPACE}:`);
  });

  it("leaves English, the SMS text, URLs and clock times alone, and is idempotent", () => {
    expect(getMessages(["en"])).toBe(en);
    expect(en.handset.notYou).toBe("Not you? Reject it: nobody can use it without the number on your screen.");
    expect(fr.sms.code("Client : A", "123456")).toBe("Votre code de connexion pour Client : A est 123456");
    expect(frenchTypography("https://a.example:8443/x à 06:12")).toBe("https://a.example:8443/x à 06:12");
    expect(frenchTypography("« Oui » ? Non !")).toBe(`«${FRENCH_SPACE}Oui${FRENCH_SPACE}»${FRENCH_SPACE}? Non${FRENCH_SPACE}!`);
    const once = frenchTypography("a : b ; c ?");
    expect(frenchTypography(once)).toBe(once);
  });
});
