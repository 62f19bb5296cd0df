import { headers } from "next/headers";
import { playgroundUrls } from "@/lib/playground/playground-settings";

export const dynamic = "force-dynamic";
export const metadata = { title: "Signed in · Playground" };

// The popup flow's callbackUrl: hands the result to the opener (which re-reads the session) and closes.
export default async function PopupDonePage() {
  // The per-request CSP nonce (proxy.ts): an inline script without it is blocked.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  const page = playgroundUrls().page;
  // JSON.stringify escapes quotes; "<" is escaped so the value cannot close the script element.
  const target = JSON.stringify(page).replace(/</g, "\\u003c");
  const script = `if (window.opener && !window.opener.closed) { window.opener.location.assign(${target}); window.close(); }`;
  return (
    <main className="mx-auto max-w-md p-6">
      <h1 className="text-xl font-bold">Signed in</h1>
      <p className="text-sm">This window closes itself. <a className="underline" href={page}>Back to the playground</a></p>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />
    </main>
  );
}
