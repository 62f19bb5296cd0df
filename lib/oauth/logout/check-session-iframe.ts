import { createHash } from "node:crypto";
import { escapeHtml, htmlDocument } from "../../http/html";
import { ifDatabaseUnavailable } from "../../http/if-database-unavailable";
import { cspSourceList } from "../../http/csp-sources";
import { hstsHeaders } from "../../http/security-headers";
import { unavailablePage } from "../../http/unavailable-page";
import { logger } from "../../log";
import { registeredClientOrigins } from "../../logout/registered-origins";
import { browserStateCookieName } from "../../sessions/browser-state";

/**
 * The OP iframe's script (OIDC Session Management 1.0 §3.3), static, so the page's CSP allows it by
 * its hash: on `postMessage("<client_id> <session_state>")` it recomputes SHA-256 of
 * `client_id origin browser_state salt` from the sender's origin and the browser-state cookie and
 * answers "unchanged", "changed" or "error" to that origin only. No eval, no network.
 */
const SCRIPT = `(function(){
var name=document.documentElement.getAttribute("data-cookie");
function state(){var p=document.cookie?document.cookie.split("; "):[];for(var i=0;i<p.length;i++){var j=p[i].indexOf("=");
if(p[i].slice(0,j)===name)return p[i].slice(j+1);}return "";}
function hex(b){return Array.prototype.map.call(new Uint8Array(b),function(x){return(x<16?"0":"")+x.toString(16);}).join("");}
window.addEventListener("message",function(e){
if(!e.source||typeof e.data!=="string")return;
var sp=e.data.lastIndexOf(" ");var ss=sp>0?e.data.slice(sp+1):"";var dot=ss.lastIndexOf(".");
if(sp<=0||dot<=0){e.source.postMessage("error",e.origin);return;}
var salt=ss.slice(dot+1);var text=e.data.slice(0,sp)+" "+e.origin+" "+state()+" "+salt;
crypto.subtle.digest("SHA-256",new TextEncoder().encode(text)).then(function(d){
e.source.postMessage(hex(d)+"."+salt===ss?"unchanged":"changed",e.origin);},function(){e.source.postMessage("error",e.origin);});
});})();`;
const SCRIPT_HASH = createHash("sha256").update(SCRIPT).digest("base64");

/**
 * GET {check_session_iframe}: the page relying parties frame (§3.3). It may be framed only by the
 * origins of the active clients' registered redirect URIs (`frame-ancestors`, computed from the
 * client table, cached 30 s, each kept only if it is a plain origin: lib/http/csp-sources.ts); a
 * header cannot depend on which client frames it (the page learns the client_id only later, by
 * postMessage), so the list is the union. Every other page keeps
 * `frame-ancestors 'none'`. The session_state already binds the RP's origin, so an origin of
 * another client only ever reads "changed".
 */
export async function handleCheckSessionIframe(): Promise<Response> {
  try {
    const origins = await registeredClientOrigins();
    const html = htmlDocument({ title: "Session check", body: `<script>${SCRIPT}</script>` })
      .replace("<html ", `<html data-cookie="${escapeHtml(browserStateCookieName())}" `);
    return new Response(html, {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; `
          + `frame-ancestors ${cspSourceList(origins)}; base-uri 'none'; form-action 'none'`,
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        ...hstsHeaders(),
      },
    });
  } catch (err) {
    const unavailable = ifDatabaseUnavailable(err, () => unavailablePage());
    if (unavailable) return unavailable;
    logger.error({ err }, "check_session_iframe failed");
    return new Response("server error", { status: 500, headers: { "Content-Type": "text/plain" } });
  }
}
