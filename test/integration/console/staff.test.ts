import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { totpCode } from "@/lib/console/totp";
import { baseUrl } from "../../support/authorize-support";
import { consoleSignIn, createTestStaff, type TestStaff } from "../../support/console-support";

/** The values of a show-once page (`<dt>label</dt><dd><code>value</code></dd>`), by label. */
function shownValues(html: string): Map<string, string> {
  const decode = (s: string) => s.replace(/&amp;/g, "&").replace(/&quot;/g, "\"").replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  return new Map([...html.matchAll(/<dt>([^<]*)<\/dt><dd><code>([^<]*)<\/code><\/dd>/g)].map((m) => [decode(m[1]!), decode(m[2]!)]));
}

const location = (res: Response) => new URL(res.headers.get("location") ?? "", baseUrl);

/** The staff page (issue 22): admin only; create, role, disable, enable, reset; refusals; show-once credentials. */
describe("console staff page", () => {
  it("lists members for an admin, with status and last sign-in", async () => {
    const admin = await createTestStaff("admin");
    const other = await createTestStaff("care");
    const session = await consoleSignIn(baseUrl, admin);
    const page = await session.get("/console/staff");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(other.username);
    expect(html).toContain(`<th scope="col"`);
    expect(html).toContain("customer care");
    expect(html).not.toMatch(/\$scrypt|passwordHash/);
  });

  it("creates a member and shows the credentials once (no-store); the member signs in with them", async () => {
    const admin = await createTestStaff("admin");
    const session = await consoleSignIn(baseUrl, admin);
    const username = `new-${Date.now().toString(36)}`;
    const res = await session.post("/console/staff/create", { username, role: "care" }, "/console/staff");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html).toContain(`Member ${username} created`);
    const shown = shownValues(html);
    const password = shown.get("Password")!;
    const secret = shown.get("TOTP secret")!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(shown.get("TOTP URI")).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const member: TestStaff = { username, password, totpSecret: secret, role: "care" };
    const theirs = await consoleSignIn(baseUrl, member, totpCode(secret, username));
    expect(await (await theirs.get("/console")).text()).toContain(username);
    const row = await db.staff.findUniqueOrThrow({ where: { username } });
    expect(row.role).toBe("care");
    const audit = await db.auditEvent.findFirstOrThrow({ where: { type: "console_staff_create", staffId: { not: null } },
      orderBy: { at: "desc" } });
    expect(JSON.parse(audit.detail!)).toEqual({ username, role: "care" });
    expect(audit.detail).not.toContain(password);
    // The same username again: refused on the page, nothing shown.
    const again = await session.post("/console/staff/create", { username, role: "viewer" }, "/console/staff");
    expect(again.status).toBe(303);
    expect(location(again).searchParams.get("e")).toBe("exists");
    const bad = await session.post("/console/staff/create", { username: "A B", role: "viewer" }, "/console/staff");
    expect(location(bad).searchParams.get("e")).toBe("username");
  });

  it("changes a role, which ends the member's sessions", async () => {
    const admin = await createTestStaff("admin");
    const member = await createTestStaff("viewer");
    const theirs = await consoleSignIn(baseUrl, member);
    expect((await theirs.get("/console")).status).toBe(200);
    const session = await consoleSignIn(baseUrl, admin);
    const res = await session.post("/console/staff/role", { username: member.username, role: "care" }, "/console/staff");
    expect(res.status).toBe(303);
    expect(location(res).searchParams.get("done")).toBe("role");
    expect((await db.staff.findUniqueOrThrow({ where: { username: member.username } })).role).toBe("care");
    const after = await fetch(`${baseUrl}/console`, { headers: { cookie: theirs.cookie() }, redirect: "manual" });
    expect(after.headers.get("location")).toContain("/console/sign-in");
    const again = await consoleSignIn(baseUrl, member);
    expect((await again.get("/console/subscribers")).status).not.toBe(403);
  });

  it("disables a member (their session ends at once) and enables them again, lifting a lockout", async () => {
    const admin = await createTestStaff("admin");
    const member = await createTestStaff("care");
    const theirs = await consoleSignIn(baseUrl, member);
    const session = await consoleSignIn(baseUrl, admin);
    const res = await session.post("/console/staff/disable", { username: member.username }, "/console/staff");
    expect(location(res).searchParams.get("done")).toBe("disabled");
    const after = await fetch(`${baseUrl}/console`, { headers: { cookie: theirs.cookie() }, redirect: "manual" });
    expect(after.headers.get("location")).toContain("/console/sign-in");
    const unusedCode = totpCode(member.totpSecret, member.username, Date.now() - 30_000); // valid, not used yet
    await expect(consoleSignIn(baseUrl, member, unusedCode)).rejects.toThrow(/e=invalid/);
    await db.staff.update({ where: { username: member.username },
      data: { lockedUntil: new Date(Date.now() + 600_000) } });
    const enabled = await session.post("/console/staff/enable", { username: member.username }, "/console/staff");
    expect(location(enabled).searchParams.get("done")).toBe("enabled");
    const row = await db.staff.findUniqueOrThrow({ where: { username: member.username } });
    expect(row.disabledAt).toBeNull();
    expect(row.lockedUntil).toBeNull();
    expect((await (await consoleSignIn(baseUrl, member)).get("/console")).status).toBe(200);
  });

  it("resets credentials: shown once, the old password stops working, the member's sessions end", async () => {
    const admin = await createTestStaff("admin");
    const member = await createTestStaff("viewer");
    const theirs = await consoleSignIn(baseUrl, member);
    const session = await consoleSignIn(baseUrl, admin);
    const res = await session.post("/console/staff/reset", { username: member.username }, "/console/staff");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const shown = shownValues(await res.text());
    const after = await fetch(`${baseUrl}/console`, { headers: { cookie: theirs.cookie() }, redirect: "manual" });
    expect(after.headers.get("location")).toContain("/console/sign-in");
    await expect(consoleSignIn(baseUrl, member, "000000")).rejects.toThrow(/e=invalid/);
    const renewed: TestStaff = { ...member, password: shown.get("Password")!, totpSecret: shown.get("TOTP secret")! };
    expect((await (await consoleSignIn(baseUrl, renewed, totpCode(renewed.totpSecret, member.username))).get("/console")).status)
      .toBe(200);
  });

  it("refuses an admin disabling or demoting themself, with a message", async () => {
    const admin = await createTestStaff("admin");
    const session = await consoleSignIn(baseUrl, admin);
    for (const [path, fields] of [["/console/staff/disable", {}], ["/console/staff/role", { role: "viewer" }]] as const) {
      const res = await session.post(path, { username: admin.username, ...fields }, "/console/staff");
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get("e")).toBe("self");
      const page = await session.get(`/console/staff?e=self`);
      expect(await page.text()).toContain("You cannot disable yourself");
    }
    // Their own unchanged role (the row's form sent as it is) changes nothing and keeps them signed in.
    const same = await session.post("/console/staff/role", { username: admin.username, role: "admin" }, "/console/staff");
    expect(location(same).searchParams.get("done")).toBe("role");
    expect((await session.get("/console/staff")).status).toBe(200);
    const row = await db.staff.findUniqueOrThrow({ where: { username: admin.username } });
    expect(row.role).toBe("admin");
    expect(row.disabledAt).toBeNull();
    const denied = await db.auditEvent.count({ where: { type: { in: ["console_staff_disable", "console_staff_role"] },
      outcome: "denied", staffId: row.id } });
    expect(denied).toBe(2);
  });

  for (const role of ["viewer", "care"] as const) {
    it(`refuses a ${role}: 403 on the page and on every action, audited`, async () => {
      const member = await createTestStaff(role);
      const victim = await createTestStaff("viewer");
      const session = await consoleSignIn(baseUrl, member);
      expect((await session.get("/console/staff")).status).toBe(403);
      for (const verb of ["create", "role", "disable", "enable", "reset"]) {
        const res = await session.post(`/console/staff/${verb}`, { username: victim.username, role: "admin" }, "/console");
        expect(res.status).toBe(403);
      }
      const row = await db.staff.findUniqueOrThrow({ where: { username: member.username } });
      expect(await db.auditEvent.count({ where: { staffId: row.id, outcome: "denied", type: { startsWith: "console_staff_" } } }))
        .toBe(5);
      expect((await db.staff.findUniqueOrThrow({ where: { username: victim.username } })).role).toBe("viewer");
    });
  }

  it("refuses a post without the CSRF token, or from another site (403)", async () => {
    const admin = await createTestStaff("admin");
    const victim = await createTestStaff("viewer");
    const session = await consoleSignIn(baseUrl, admin);
    const html = await (await session.get("/console/staff")).text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
    const post = (headers: Record<string, string>, body: Record<string, string>) => fetch(`${baseUrl}/console/staff/disable`, {
      method: "POST", redirect: "manual", body: new URLSearchParams(body),
      headers: { cookie: session.cookie(), "content-type": "application/x-www-form-urlencoded", ...headers } });
    expect((await post({ origin: baseUrl }, { username: victim.username })).status).toBe(403);
    expect((await post({ origin: baseUrl }, { username: victim.username, csrf_token: "x" + token.slice(1) })).status).toBe(403);
    expect((await post({ origin: "https://evil.example" }, { username: victim.username, csrf_token: token })).status).toBe(403);
    expect((await db.staff.findUniqueOrThrow({ where: { username: victim.username } })).disabledAt).toBeNull();
    expect((await post({ origin: baseUrl }, { username: victim.username, csrf_token: token })).status).toBe(303);
  });

  it("is never framed and never cached", async () => {
    const admin = await createTestStaff("admin");
    const session = await consoleSignIn(baseUrl, admin);
    const page = await session.get("/console/staff");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cache-control") ?? "").toMatch(/no-store|private/);
  });

  it("pages in French with the lang cookie", async () => {
    const admin = await createTestStaff("admin");
    const session = await consoleSignIn(baseUrl, admin);
    const res = await fetch(`${baseUrl}/console/staff`, { headers: { cookie: `${session.cookie()}; lang=fr` }, redirect: "manual" });
    const html = await res.text();
    expect(html).toContain("Ajouter un membre");
    expect(html).toContain("Identifiant");
  });
});
