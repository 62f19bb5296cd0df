import { describe, expect, it } from "vitest";
import { baseUrl } from "../../support/authorize-support";
import { consoleSignIn, createTestStaff, freshTotp } from "../../support/console-support";

/** The console's staff sign-in (issue 22): next-auth's credentials callback, password and TOTP, over plain HTTP. */
describe("console sign-in", () => {
  it("signs a member in with password and TOTP code; the console then shows who is signed in", async () => {
    const staff = await createTestStaff("viewer");
    const session = await consoleSignIn(baseUrl, staff);
    const home = await session.get("/console");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(staff.username);
  });

  it("refuses a wrong password, a wrong code and a replayed code, with the same message", async () => {
    const staff = await createTestStaff("viewer");
    await expect(consoleSignIn(baseUrl, { ...staff, password: "wrong" })).rejects.toThrow(/e=invalid/);
    await expect(consoleSignIn(baseUrl, staff, "000000")).rejects.toThrow(/e=invalid/);
    const code = freshTotp(staff);
    await consoleSignIn(baseUrl, staff, code);
    await expect(consoleSignIn(baseUrl, staff, code)).rejects.toThrow(/e=invalid/);
  });

  it("sends a visitor without a session to the sign-in page", async () => {
    const res = await fetch(`${baseUrl}/console`, { redirect: "manual" });
    expect([303, 307, 308]).toContain(res.status);
    expect(res.headers.get("location")).toContain("/console/sign-in");
  });
});
