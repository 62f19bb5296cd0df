"use client";

import { useEffect, useState } from "react";

/**
 * The live region of the "approve on your phone" waiting screen (issue 17; no meta refresh). Server-rendered
 * with the no-script text (press "Check now"); with JavaScript it says the page moves on by itself and holds
 * GET /interaction/{id}/phone (Accept: application/json) in a loop: still waiting -> hold again; answered
 * (or anything else) -> says so politely and goes where the check says.
 */
export function PhoneWaiter({ check, className, noScript, script, answered }: {
  check: string; className: string; noScript: string; script: string; answered: string;
}) {
  const [text, setText] = useState(noScript);
  useEffect(() => {
    const ctl = new AbortController();
    let stopped = false;
    setText(script);
    (async () => {
      let failures = 0;
      while (!stopped) {
        try {
          const res = await fetch(check, { headers: { accept: "application/json" }, cache: "no-store", signal: ctl.signal });
          const body = res.ok && res.headers.get("content-type")?.startsWith("application/json")
            ? (await res.json()) as { waiting?: boolean; next?: string } : {};
          if (body.waiting) { failures = 0; continue; }
          setText(answered);
          // same-origin paths only; anything unexpected: the check itself, as without script
          window.location.assign(typeof body.next === "string" && body.next.startsWith("/") && !body.next.startsWith("//")
            ? body.next : check);
          return;
        } catch {
          if (stopped) return;
          failures += 1;
          await new Promise((r) => setTimeout(r, Math.min(30_000, 1_000 * 2 ** failures)));
        }
      }
    })();
    return () => { stopped = true; ctl.abort(); };
  }, [check, script, answered]);
  return <p role="status" aria-live="polite" id="phone-status" className={className}>{text}</p>;
}
