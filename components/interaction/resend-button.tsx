"use client";

import { useEffect, useState } from "react";

/**
 * "Request a new code" with its wait (issue 17). Server-rendered disabled, described by the time it
 * becomes available (`waitText`, written as a clock time: without script, reloading the page after
 * it shows the button enabled); with script it enables itself after `waitMs` and the text goes away.
 */
export function ResendButton({ label, className, waitMs, waitText, textClassName, describedBy }: {
  label: string; className: string; waitMs: number; waitText: string; textClassName: string;
  /** The message this button answers (a burnt or expired code), linked to it. */
  describedBy?: string;
}) {
  const [ready, setReady] = useState(waitMs <= 0);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setReady(true), waitMs);
    return () => clearTimeout(timer);
  }, [ready, waitMs]);
  return (
    <>
      <button type="submit" id="resend" className={className} disabled={!ready}
        aria-describedby={ready ? describedBy : "resend-at"}>{label}</button>
      {!ready && <p id="resend-at" className={textClassName}>{waitText}</p>}
    </>
  );
}
