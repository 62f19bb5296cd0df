import { describe, expect, it } from "vitest";
import { newClientId } from "./create-client";

describe("newClientId", () => {
  it("is 24 base64url characters and never starts with '-' (a command line would read it as an option)", () => {
    const ids = Array.from({ length: 5000 }, () => newClientId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{23}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
