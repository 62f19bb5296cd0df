import { ENDPOINTS, SCREEN_AREAS } from "../http/endpoints";

/**
 * The `endpoint` label of a request path, from a bounded set: the endpoint registry's names (lib/http/endpoints.ts,
 * dynamic segments matched), `console`, `screen` (the subscriber screens and device pages), `static` (Next.js
 * assets, favicon) and `other`. Never the path itself: a client cannot make new series.
 */
export function endpointLabel(pathname: string): string {
  const fixed = FIXED.get(pathname);
  if (fixed) return fixed;
  for (const [re, name] of DYNAMIC) if (re.test(pathname)) return name;
  if (pathname.startsWith("/_next/") || pathname === "/favicon.ico" || pathname === "/robots.txt") return "static";
  if (pathname === "/console" || pathname.startsWith("/console/")) return "console";
  for (const area of AREAS) if (pathname === area || pathname.startsWith(`${area}/`)) return "screen";
  return pathname === "/" ? "screen" : "other";
}

const entries = Object.entries(ENDPOINTS) as Array<[string, { path: string }]>;
const FIXED = new Map(entries.filter(([, e]) => !e.path.includes("[")).map(([n, e]) => [e.path, n]));
const DYNAMIC: Array<[RegExp, string]> = entries.filter(([, e]) => e.path.includes("[")).map(([n, e]) => [
  new RegExp(`^${e.path.split("/").map((seg) => seg.startsWith("[...") ? ".+" : seg.startsWith("[") ? "[^/]+"
    : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("/")}$`), n]);
const AREAS = SCREEN_AREAS.filter((a) => a !== "/" && a !== "/console");

/** The endpoints the dashboard charts latency for (their registry names, `screen` for the sign-in screens). */
export const MAIN_ENDPOINTS = ["authorization", "resume", "screen", "token", "userinfo", "premiuminfo"] as const;
