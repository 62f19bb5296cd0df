import type { Metadata } from "next";
import { headers } from "next/headers";
import { DisplayFrame } from "@/components/display/display-frame";
import { ScreenStep } from "@/components/interaction/screen-step";
import { FailureStep } from "@/components/interaction/failure-step";
import { loadOrUnavailable } from "@/lib/http/unavailable-screen";
import { pageLanguage } from "@/lib/i18n/page-language";
import { currentScreenOnce, failureContextOnce } from "@/lib/interaction/current-screen-once";
import { formActionPolicy } from "@/lib/http/security-headers";
import { readStepNotice } from "@/lib/interaction/read-step-notice";
import { readBrowserId } from "@/lib/sessions/browser-cookie";

export const dynamic = "force-dynamic";

// Frame-ancestors / X-Frame-Options come from next.config.js headers(); a page cannot set headers.
export const metadata: Metadata = { referrer: "no-referrer", robots: { index: false, follow: false } };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** GET /interaction/{id}: the sign-in, account selection or consent screen of a pending authorization. */
export default async function InteractionPage({ params, searchParams }: Props) {
  const [{ id }, query, h] = await Promise.all([params, searchParams, headers()]);
  const browserId = readBrowserId(h.get("cookie"));
  const current = await loadOrUnavailable(
    () => currentScreenOnce(id, browserId, query.step === "msisdn"), `/interaction/${id}`);
  if (!current) {
    // Unknown, expired, finished, or another browser's request: no redirect, in the stored request's
    // display and language (server/wap-screen.tsx renders display=wap without script), else the
    // default display and the browser's language. Only the starting browser learns which case, and
    // gets "Back to the app" for an expired or cancelled request (failure-context.ts).
    const ctx = await failureContextOnce(id, h.get("accept-language"), browserId);
    const t = await pageLanguage(); // the lang cookie, else its ui_locales, else Accept-Language (shared with the layout)
    return (
      <>
      <meta httpEquiv="Content-Security-Policy" content={formActionPolicy(undefined)} />
      <DisplayFrame display={ctx.display} t={t}>
        {(ui) => <FailureStep t={t} ui={ui} reason={ctx.reason} backHref={ctx.backHref} />}
      </DisplayFrame>
      </>
    );
  }
  const { params: p, screen, csrf, mark } = current;
  const t = await pageLanguage(); // the lang cookie, else ui_locales, else Accept-Language (shared with the layout)
  const notice = readStepNotice({ e: query.e, until: query.until, left: query.left, t });
  const common = { id, csrf, t, clientName: p.clientName, mark, ...notice };
  return (
    <>
    {/* CSP form-action (React hoists <meta> into <head>): the forms end in a 303 to the redirect URI. */}
    <meta httpEquiv="Content-Security-Policy" content={formActionPolicy(p.redirectUri)} />
    <DisplayFrame display={p.display} t={t}>
      {(ui) => <ScreenStep {...common} ui={ui} screen={screen} params={p} />}
    </DisplayFrame>
    </>
  );
}
