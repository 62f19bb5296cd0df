import { DocPage } from "@/components/doc-page";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

export default function DocsPage() {
  const issuer = config().ISSUER;
  return (
    <DocPage title="Developer documentation">
      <p>This is an OpenID Connect provider for mobile subscribers (Mobile Connect profile). Start from the
        provider metadata at <a className="underline" href="/.well-known/openid-configuration">
        {issuer}/.well-known/openid-configuration</a>; it lists every endpoint, scope, assurance level and login
        hint method.</p>
      <p>Flow: send the browser to the authorization endpoint with <code>response_type=code</code>,
        <code>scope</code> containing <code>openid</code>, <code>acr_values</code> (2 or 3), <code>state</code>
        and <code>nonce</code>; exchange the code at the token endpoint; read attributes at the premium info
        endpoint with the access token.</p>
      <p>Quirks of the interface honoured beside the standards: a JSON token request body, the
        <code>Authentication: Basic</code> header, <code>expires_in</code> as an absolute unix time in a string
        (or seconds, per client), and <code>?token=</code> at premium info.</p>
    </DocPage>
  );
}
