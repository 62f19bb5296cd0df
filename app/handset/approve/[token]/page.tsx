import type { Metadata } from "next";
import { headers } from "next/headers";
import { LanguageSwitch } from "@/components/display/language-switch";
import { viewLinkRequest } from "@/lib/ciba/answer-by-link";
import { readLinkProof } from "@/lib/devices/handle-device-post";
import { loadOrUnavailable } from "@/lib/http/unavailable-screen";
import { pageLanguage } from "@/lib/i18n/page-language";
import { servicePath } from "@/lib/interaction/screen-headers";
import { CibaRequestCard } from "../../ciba-request-card";

export const dynamic = "force-dynamic";
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await pageLanguage()).handset.link.title, referrer: "no-referrer", robots: { index: false, follow: false } };
}

type Props = {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * GET /handset/approve/{token}: the text-message link of a subscriber with no registered phone (CIBA's fallback,
 * lib/ciba/answer-by-link.ts). Asks the code of the text message (POST …/code); with the right code (a proof cookie)
 * shows the same approval card as the handset, answered by POST …/answer. Opening it never answers anything. Every
 * end is a plain sentence: not a valid link, expired, already answered (and how), no tries left. No script.
 */
export default async function ApproveByLinkPage({ params, searchParams }: Props) {
  const { token } = await params;
  const query = await searchParams;
  const h = await headers();
  const t = await pageLanguage();
  const m = t.handset.link;
  const path = `/handset/approve/${token}`;
  const view = await loadOrUnavailable(() => viewLinkRequest({ token, proof: readLinkProof(h.get("cookie")) }), path);
  const errorKey = typeof query.error === "string" && Object.hasOwn(m.errors, query.error) ? query.error : undefined;
  // A code error only makes sense next to the code form; a PIN error only next to the card.
  const error = errorKey && (view.state === "code" ? errorKey.startsWith("code") || errorKey === "bad_request"
    : view.state === "card" && !errorKey.startsWith("code")) ? m.errors[errorKey] : undefined;
  return (
    <main lang={t.lang} className="mx-auto max-w-sm p-4">
      <h1 className="text-xl font-semibold">{m.title}</h1>
      {view.state === "code" ? (
        <>
          {error && <p role="alert" className="my-3 rounded bg-red-100 p-2 text-sm text-red-900">
            {error}{errorKey === "code_invalid" ? ` ${m.triesLeft(view.triesLeft)}` : ""}</p>}
          <p className="my-3">{m.codeIntro}</p>
          <form method="post" action={servicePath(`${path}/code`)} className="flex flex-wrap items-end gap-2">
            <label className="w-full text-sm">{m.codeLabel}
              <input name="code" type="text" inputMode="numeric" autoComplete="one-time-code" maxLength={8} required
                pattern="[0-9 ]*" className="mt-1 block w-32 rounded border border-slate-300 px-2 py-1 text-lg tracking-widest" />
            </label>
            <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">{m.showRequest}</button>
          </form>
        </>
      ) : view.state === "card" ? (
        <>
          {error && <p role="alert" className="my-3 rounded bg-red-100 p-2 text-sm text-red-900">{error}</p>}
          <section className="device-request ciba-request my-3 rounded-xl border border-slate-300 bg-white p-3">
            <CibaRequestCard t={t} action={servicePath(`${path}/answer`)} clientName={view.clientName} mark={view.mark}
              scope={view.scope}
              acr={view.acr} bindingMessage={view.bindingMessage} expiresAt={view.expiresAt} />
          </section>
        </>
      ) : (
        <p role="status" className={`link-state link-${view.state} my-3 rounded bg-slate-200 p-2`}>{m.states[view.state]}</p>
      )}
      <LanguageSwitch t={t} className="mt-8 text-sm" />
    </main>
  );
}
