import { cookies, headers } from "next/headers";
import { FORM_CHOICES, PARAMETER_HELP } from "@/lib/playground/authorization-params";
import { ensurePlaygroundClientOnce } from "@/lib/playground/ensure-playground-client";
import { fetchResource, verifyIdToken } from "@/lib/playground/inspect-tokens";
import { AUTHORIZE_URL_COOKIE } from "@/lib/playground/playground-actions";
import { PLAYGROUND_CLIENT_ID, playgroundUrls } from "@/lib/playground/playground-settings";
import { readPlaygroundSession } from "@/lib/playground/read-session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Playground · Operator Identity" };

const json = (v: unknown) => JSON.stringify(v, null, 2);
const box = "rounded border border-slate-300 bg-white p-4";
const pre = "overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-3 text-xs";
const button = "rounded bg-slate-800 px-3 py-1.5 text-sm font-medium text-white";

// Opens the 450×500 popup for display=popup and posts the form into it (without JavaScript the flow
// simply runs in this window). /playground/popup-done reloads this page and closes the popup.
const POPUP_SCRIPT = `document.getElementById("playground-form").addEventListener("submit", function () {
  var form = this;
  form.target = "";
  if (form.elements.display.value !== "popup") return;
  var w = window.open("about:blank", "mc-popup", "popup,width=450,height=500");
  if (w) form.target = "mc-popup";
});`;

/** The authorization URL kept by /playground/start; a tampered cookie shows nothing rather than failing. */
function readAuthorizeUrl(cookie: string | undefined): string | undefined {
  try {
    return cookie ? decodeURIComponent(cookie) : undefined;
  } catch {
    return undefined;
  }
}

function Help({ name }: { name: keyof typeof PARAMETER_HELP }) {
  return <p className="text-xs text-slate-600">{PARAMETER_HELP[name]}</p>;
}

function Select({ name, label, options, empty }: { name: keyof typeof PARAMETER_HELP | "login_hint_type"; label: string; options: readonly string[]; empty?: string }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <select name={name} className="rounded border border-slate-300 bg-white p-1">
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
    </label>
  );
}

function Text({ name, label, placeholder }: { name: string; label: string; placeholder?: string }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium">{label}</span>
      <input name={name} placeholder={placeholder} className="rounded border border-slate-300 p-1" />
    </label>
  );
}

function Resource({ title, view }: { title: string; view: Awaited<ReturnType<typeof fetchResource>> }) {
  return (
    <section className={box} aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {view ? (
        <>
          <p className="text-xs text-slate-600">GET {view.url} with Authorization: Bearer — HTTP {view.status}</p>
          <pre className={pre}>{typeof view.body === "string" ? view.body : json(view.body)}</pre>
        </>
      ) : <p className="text-sm">No access token.</p>}
    </section>
  );
}

export default async function PlaygroundPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await ensurePlaygroundClientOnce();
  const urls = playgroundUrls();
  const jar = Object.fromEntries((await cookies()).getAll().map((c) => [c.name, c.value]));
  const session = await readPlaygroundSession(jar);
  const tokens = session?.tokens;
  const error = (await searchParams).error;
  const authorizeUrl = readAuthorizeUrl(jar[AUTHORIZE_URL_COOKIE]);
  const [idToken, premium, userinfo] = tokens
    ? await Promise.all([
      tokens.id_token ? verifyIdToken(tokens.id_token) : Promise.resolve(null),
      fetchResource("premiuminfo_endpoint", tokens), fetchResource("userinfo_endpoint", tokens),
    ])
    : [null, null, null];

  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 p-6">
      <header>
        <h1 className="text-2xl font-bold">Relying-party playground</h1>
        <p className="text-sm text-slate-700">
          Runs the sign-in flow against this service as the built-in client <code>{PLAYGROUND_CLIENT_ID}</code>. The
          relying party is next-auth with this service as an OpenID Connect provider found through{" "}
          <code>{urls.discovery}</code>; its redirect URI is <code>{urls.callback}</code>.
        </p>
      </header>

      {typeof error === "string" && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm">Sign-in error: {error}</p>
      )}

      {authorizeUrl && (
        <section className={box} aria-label="Authorization request">
          <h2 className="text-lg font-semibold">Authorization request sent</h2>
          <p className="text-xs text-slate-600">Built by next-auth (openid-client): state, nonce and the PKCE challenge are its own.</p>
          <pre className={pre} data-testid="authorize-url">{authorizeUrl}</pre>
        </section>
      )}

      {tokens ? (
        <>
          <section className={box} aria-label="Token response">
            <h2 className="text-lg font-semibold">Token response ({tokens.grant})</h2>
            <p className="text-xs text-slate-600">
              As kept by the client library: openid-client turns <code>expires_in</code> (seconds for this client) into an absolute <code>expires_at</code>.
            </p>
            {session?.refreshError && <p role="alert" className="text-sm text-red-700">Refresh failed: {session.refreshError}</p>}
            <pre className={pre}>{json(tokens)}</pre>
            <div className="mt-3 flex flex-wrap gap-2">
              <form method="post" action="/playground/refresh"><button className={button}>Refresh tokens</button></form>
              <form method="post" action="/playground/revoke">
                <input type="hidden" name="token" value="access_token" />
                <button className={button}>Revoke access token</button>
              </form>
              <form method="post" action="/playground/revoke">
                <input type="hidden" name="token" value="refresh_token" />
                <button className={button}>Revoke refresh token</button>
              </form>
              <form method="post" action="/playground/logout"><button className={button}>Log out</button></form>
            </div>
          </section>

          <section className={box} aria-label="ID token">
            <h2 className="text-lg font-semibold">
              id_token {idToken?.verified ? "(signature verified)" : "(NOT verified)"}
            </h2>
            <p className="text-xs text-slate-600">Verified with jose against the jwks_uri: RS256 signature, iss, aud.</p>
            {idToken && !idToken.verified && <p role="alert" className="text-sm text-red-700">{idToken.error}</p>}
            <h3 className="mt-2 font-medium">Header</h3>
            <pre className={pre}>{json(idToken?.header ?? null)}</pre>
            <h3 className="mt-2 font-medium">Claims</h3>
            <pre className={pre} data-testid="id-token-claims">{json(idToken?.verified ? idToken.claims : null)}</pre>
          </section>

          <Resource title="Premium info" view={premium} />
          <Resource title="Userinfo" view={userinfo} />
        </>
      ) : (
        <p className="text-sm">Not signed in to the playground.</p>
      )}

      <section className={box} aria-label="Start a flow">
        <h2 className="text-lg font-semibold">Start a flow</h2>
        <form id="playground-form" method="post" action="/playground/start" className="flex flex-col gap-4">
          <fieldset className="flex flex-col gap-1">
            <legend className="text-sm font-medium">Scopes</legend>
            <Help name="scope" />
            <div className="flex flex-wrap gap-3 text-sm">
              {FORM_CHOICES.scopes.map((s) => (
                <label key={s} className="flex items-center gap-1">
                  <input type="checkbox" name="scope" value={s} defaultChecked={s === "openid" || s === "mc_authn"} />
                  {s}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <div><Select name="acr_values" label="acr_values" options={FORM_CHOICES.acr} /><Help name="acr_values" /></div>
            <div><Select name="display" label="display" options={FORM_CHOICES.display} /><Help name="display" /></div>
            <div><Select name="prompt" label="prompt" options={FORM_CHOICES.prompts} empty="(not sent)" /><Help name="prompt" /></div>
            <div><Select name="version" label="version" options={FORM_CHOICES.versions} /><Help name="version" /></div>
            <div className="flex flex-col gap-1">
              <Select name="login_hint_type" label="login_hint form" options={FORM_CHOICES.hints} empty="(no hint)" />
              <Text name="login_hint_value" label="login_hint value" placeholder="447700900001" />
              <Help name="login_hint" />
            </div>
            <div><Text name="max_age" label="max_age" placeholder="seconds" /><Help name="max_age" /></div>
            <div><Text name="ui_locales" label="ui_locales" placeholder="fr en" /><Help name="ui_locales" /></div>
            <div><Text name="context" label="context" placeholder="Pay £10 to Example Shop" /><Help name="context" /></div>
            <div><Text name="binding_message" label="binding_message" placeholder="Order 1234" /><Help name="binding_message" /></div>
          </div>
          <button className={`${button} self-start`}>Sign in with the operator</button>
        </form>
        <script nonce={(await headers()).get("x-nonce") ?? undefined} dangerouslySetInnerHTML={{ __html: POPUP_SCRIPT }} />
      </section>

      <section className={box} aria-label="Spec quirks">
        <h2 className="text-lg font-semibold">Where the Mobile Connect spec differs from plain OAuth</h2>
        <ul className="list-disc pl-5 text-sm">
          <li><code>expires_in</code>: the spec makes it an absolute unix time (a string); standard libraries read seconds (RFC 6749), so this client is registered with <code>seconds</code>.</li>
          <li><code>Authentication: Basic</code>: the spec&apos;s header name for client authentication; next-auth and openid-client send the standard <code>Authorization: Basic</code>, which the service accepts too.</li>
          <li><code>?token=</code>: the spec passes the access token to premium info in the query; this page sends <code>Authorization: Bearer</code> (RFC 6750 discourages tokens in URLs).</li>
        </ul>
      </section>
    </main>
  );
}
