import { describe, expect, it } from "vitest";
import { AA_TEXT, adjustForContrast, contrast, DARK_SURFACE, hoverShade, mix, normaliseHex, textOn } from "./colour";

describe("brand colour arithmetic (WCAG 2.2 contrast)", () => {
  it("computes the WCAG contrast ratio", () => {
    expect(contrast("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrast("#000", "#fff")).toBeCloseTo(21, 5);
    expect(contrast("#1d4ed8", "#ffffff")).toBeCloseTo(6.7, 1); // the neutral default button
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2); // the classic just-below-AA grey
  });

  it("normalises short and upper-case hex", () => {
    expect(normaliseHex("#AbC")).toBe("#aabbcc");
    expect(normaliseHex("#B4235A")).toBe("#b4235a");
  });

  it("picks the button text that reads on the brand colour, always at least AA", () => {
    expect(textOn("#b4235a")).toBe("#ffffff");
    expect(textOn("#f9a8d4")).toBe("#0f172a");
    for (const c of ["#777777", "#808080", "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#7f7f7f"]) {
      expect(contrast(textOn(c), c)).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it("keeps the hover shade at least as readable as the colour itself", () => {
    for (const c of ["#b4235a", "#f9a8d4", "#1d4ed8", "#93c5fd", "#777777"]) {
      expect(contrast(textOn(c), hoverShade(c))).toBeGreaterThanOrEqual(contrast(textOn(c), c));
    }
  });

  it("lightens a light-scheme colour until it reads on the dark surface", () => {
    const dark = adjustForContrast("#b4235a", DARK_SURFACE, "#ffffff")!;
    expect(contrast(dark, DARK_SURFACE)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast("#b4235a", DARK_SURFACE)).toBeLessThan(AA_TEXT);
    expect(mix("#000000", "#ffffff", 0.5)).toBe("#808080");
  });
});
