import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { DisplayFrame } from "@/components/display/display-frame";
import { brandName } from "@/lib/branding/brand";
import { accountOptions, accountQuery, type AccountOptions } from "@/lib/account/account-options";
import { loadAccountView } from "@/lib/account/load-account-view";
import { readAccountSession } from "@/lib/account/read-account-session";
import { loadOrUnavailable } from "@/lib/http/unavailable-screen";
import { servicePath } from "@/lib/interaction/screen-headers";
import { AccountScreen, NoticeLine, type Notice } from "./account-screen";

export const dynamic = "force-dynamic";

type Query = Record<string, string | string[] | undefined>;
type Props = { searchParams: Promise<Query> };

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

async function options(query: Query): Promise<AccountOptions> {
  const h = await headers();
  return accountOptions({ display: one(query.display), uiLocales: one(query.ui_locales),
    acceptLanguage: h.get("accept-language") });
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { t } = await options(await searchParams);
  return { title: `${t.account.title} · ${brandName(t)}`, referrer: "no-referrer", robots: { index: false, follow: false } };
}

/** The last action's result (`?done=` / `?e=`): only dictionary texts, never the query itself. */
function readNotice(query: Query, { t }: AccountOptions): Notice | undefined {
  const done = one(query.done);
  const e = one(query.e);
  const texts = t.account.notices;
  if (done && Object.hasOwn(texts, done)) return { kind: "done", text: texts[done]! };
  if (e && Object.hasOwn(texts, e)) return { kind: "error", text: texts[e]! };
  return undefined;
}

/**
 * GET /account: the subscriber's own account page (docs/account.md), in the display and language of
 * its address (`?display=page|popup|touch|wap&ui_locales=fr`). Without a live account session it goes
 * straight to the sign-in (GET /account/start), unless it is showing the result of a sign-out, a
 * cancelled sign-in or an ended session: then a "Sign in" link, so it never loops.
 */
export default async function AccountPage({ searchParams }: Props) {
  const query = await searchParams;
  const o = await options(query);
  const h = await headers();
  const session = await loadOrUnavailable(() => readAccountSession({ cookieHeader: h.get("cookie") }), "/account");
  const notice = readNotice(query, o);
  const level: Record<string, string> = one(query.level) === "3" ? { level: "3" } : {};
  if (!session) {
    if (!notice) redirect(servicePath(`/account/start${accountQuery(o, level)}`));
    return (
      <DisplayFrame display={o.display} t={o.t}>
        {(ui) => (
          <div className={ui.stack}>
            <h1 className={ui.heading}>{o.t.account.signInTitle}</h1>
            <NoticeLine ui={ui} notice={notice} />
            <p className={ui.text}>{o.t.account.signInText}</p>
            <p><a className={ui.link} href={servicePath(`/account/start${accountQuery(o, level)}`)}>{o.t.account.signIn}</a></p>
          </div>
        )}
      </DisplayFrame>
    );
  }
  const view = await loadOrUnavailable(() => loadAccountView({ subscriberId: session.subscriberId, t: o.t }), "/account");
  return (
    <DisplayFrame display={o.display} t={o.t}>
      {(ui) => <AccountScreen ui={ui} options={o} view={view} csrf={session.csrf} level={session.acr} notice={notice} />}
    </DisplayFrame>
  );
}
