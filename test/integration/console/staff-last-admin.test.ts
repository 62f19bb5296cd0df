import { beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../support/server";

// A database of its own (no other test's administrators): set before lib/db is first loaded.
let accounts: typeof import("@/lib/console/staff-accounts");

/** The staff functions (CLI and console) never leave the console without an enabled administrator (issue 22). */
describe("the last enabled administrator", () => {
  beforeAll(async () => {
    process.env.DATABASE_URL = freshDatabase("staff-last-admin");
    accounts = await import("@/lib/console/staff-accounts");
  });

  it("cannot be demoted or disabled; with a second admin, one of them can", async () => {
    await accounts.createStaff({ username: "root", role: "admin" });
    await accounts.createStaff({ username: "helper", role: "care" });
    await expect(accounts.setStaffRole("root", "care")).rejects.toMatchObject({ code: "last_admin" });
    await expect(accounts.setStaffDisabled("root", true)).rejects.toMatchObject({ code: "last_admin" });
    await accounts.setStaffRole("helper", "admin");
    await accounts.setStaffDisabled("helper", true); // root remains
    await expect(accounts.setStaffRole("root", "viewer")).rejects.toMatchObject({ code: "last_admin" });
    await accounts.setStaffDisabled("helper", false);
    expect((await accounts.setStaffRole("root", "viewer")).role).toBe("viewer");
    const all = await accounts.listStaff();
    expect(all.map((s) => [s.username, s.role, s.disabled])).toEqual([["helper", "admin", false], ["root", "viewer", false]]);
  });

  it("survives two administrators demoting each other at the same moment", async () => {
    await accounts.createStaff({ username: "ann", role: "admin" }); // admins now: helper and ann
    const results = await Promise.allSettled([accounts.setStaffRole("ann", "viewer"), accounts.setStaffRole("helper", "viewer")]);
    const admins = (await accounts.listStaff()).filter((s) => s.role === "admin" && !s.disabled);
    expect(admins.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status === "rejected").length).toBeGreaterThanOrEqual(1);
  });

  it("unknown members and bad input are refused with their codes", async () => {
    await expect(accounts.setStaffRole("nobody", "care")).rejects.toMatchObject({ code: "unknown" });
    await expect(accounts.setStaffRole("root", "owner")).rejects.toMatchObject({ code: "role" });
    await expect(accounts.createStaff({ username: "Root!", role: "care" })).rejects.toMatchObject({ code: "username" });
    await expect(accounts.createStaff({ username: "root", role: "care" })).rejects.toMatchObject({ code: "exists" });
  });
});
