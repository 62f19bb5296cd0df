import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HEAD_ANSWERED, HEAD_ANSWERED_PAGES, HEAD_REFUSED, HEAD_REFUSED_PAGES, headRefusal } from "./head-requests";

/** Every `file` (route.ts, page.tsx) under app/ with the methods it exports, as paths (route groups dropped). */
function routes(file = "route.ts"): Array<{ path: string; methods: string[] }> {
  const root = path.join(process.cwd(), "app");
  const found: Array<{ path: string; methods: string[] }> = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.name !== file || !entry.isFile()) continue;
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

  it("classifies every page.tsx: HEAD refused (rendering it writes) or answered (it only reads)", () => {
    const pages = routes("page.tsx").map((r) => (r.path === "/" ? "/" : r.path));
    const refused = new Set(Object.keys(HEAD_REFUSED_PAGES));
    const answered = new Set<string>(HEAD_ANSWERED_PAGES);
    const unclassified = pages.filter((p) => refused.has(p) === answered.has(p));
    expect(unclassified, "add each to HEAD_REFUSED_PAGES or HEAD_ANSWERED_PAGES").toEqual([]);
    const stale = [...refused, ...answered].filter((p) => !pages.includes(p));
    expect(stale, "no page.tsx at these paths").toEqual([]);
    expect(routes("page.tsx").filter((r) => r.methods.length > 0), "a page exports no method handler").toEqual([]);
  });

  it("refuses HEAD on the pages whose rendering writes, the typed-number notice's /interaction/[id] first", () => {
    expect(headRefusal("/interaction/abc")).toBe("GET");
    expect(headRefusal("/interaction/abc/")).toBe("GET");
    expect(headRefusal("/interaction/ab%63")).toBe("GET");
    expect(headRefusal("/interaction/abc/phone")).toBe("GET, POST");
    expect(headRefusal("/console/subscribers")).toBe("GET");
    expect(headRefusal("/console/subscribers/s-1")).toBe("GET");
    expect(headRefusal("/playground")).toBe("GET");
    expect(headRefusal("/interaction")).toBeNull();
    expect(headRefusal("/account")).toBeNull();
    expect(headRefusal("/handset")).toBeNull();
    expect(headRefusal("/playground/popup-done")).toBeNull();
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
    expect(headRefusal("/%zz")).toBeNull();
  });
});
