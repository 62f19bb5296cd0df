import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HEAD_ANSWERED, HEAD_REFUSED, headRefusal } from "./head-requests";

/** Every route.ts under app/ with the methods it exports, as paths (route groups dropped). */
function routes(): Array<{ path: string; methods: string[] }> {
  const root = path.join(process.cwd(), "app");
  const found: Array<{ path: string; methods: string[] }> = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.name !== "route.ts" || !entry.isFile()) continue;
    const dir = path.relative(root, entry.parentPath).split(path.sep).filter((s) => s && !/^\(.*\)$/.test(s));
    const source = readFileSync(path.join(entry.parentPath, entry.name), "utf8");
    const methods = ["GET", "POST", "PUT", "DELETE", "PATCH"].filter((m) =>
      new RegExp(`export (const|async function|function) ${m}\\b|as ${m}\\b`).test(source));
    found.push({ path: `/${dir.join("/")}`, methods });
  }
  return found;
}

describe("HEAD on the GET routes (lib/http/head-requests.ts)", () => {
  const all = routes();
  const gets = all.filter((r) => r.methods.includes("GET"));

  it("classifies every route.ts that exports GET: HEAD refused (its GET has effects) or answered (it only reads)", () => {
    const refused = new Set(Object.keys(HEAD_REFUSED));
    const answered = new Set<string>(HEAD_ANSWERED);
    const unclassified = gets.filter((r) => refused.has(r.path) === answered.has(r.path)).map((r) => r.path);
    expect(unclassified, "add each to HEAD_REFUSED or HEAD_ANSWERED").toEqual([]);
    const stale = [...refused, ...answered].filter((p) => !gets.some((r) => r.path === p));
    expect(stale, "no GET route.ts at these paths").toEqual([]);
  });

  it("lists each refused route's own methods in its Allow", () => {
    for (const [p, allow] of Object.entries(HEAD_REFUSED)) {
      expect(allow, p).toBe(all.find((r) => r.path === p)!.methods.join(", "));
    }
  });

  it("matches the paths as the router may resolve them: [id] one segment, [...x] several, dot-segments, decoded", () => {
    expect(headRefusal("/authorize")).toBe("GET, POST");
    expect(headRefusal("/authorize/")).toBe("GET, POST");
    expect(headRefusal("/authoriz%65")).toBe("GET, POST");
    expect(headRefusal("/authorize/resume/abc")).toBe("GET");
    expect(headRefusal("/api/auth/callback/operator")).toBe("GET, POST");
    expect(headRefusal("/register/c-1")).toBe("GET, PUT, DELETE");
    expect(headRefusal("/./authorize")).toBe("GET, POST");
    expect(headRefusal("/x/../authorize")).toBe("GET, POST");
    expect(headRefusal("/authorize//")).toBe("GET, POST");
    expect(headRefusal("/authorize/resume/abc%2Fdef")).toBe("GET");
    expect(headRefusal("/console/auth/callback/staff")).toBe("GET, POST");
    expect(headRefusal("/api/auth")).toBeNull();
    expect(headRefusal("/authorize/resume/a/b")).toBeNull();
    expect(headRefusal("/authorizex")).toBeNull();
    expect(headRefusal("/jwks")).toBeNull();
    expect(headRefusal("/interaction/abc")).toBeNull();
    expect(headRefusal("/%zz")).toBeNull();
  });
});
