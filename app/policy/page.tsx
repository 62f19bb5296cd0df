import { DocPage } from "@/components/doc-page";

export default function PolicyPage() {
  return (
    <DocPage title="Operator policy for relying parties">
      <p>Relying parties are registered by the operator. Each receives a client_id, a client_secret (shown once,
        stored only as a hash) and an exact list of redirect URIs and scopes.</p>
      <p>Subscriber attributes are released only for the scopes the subscriber consented to, and only to the
        client that obtained the consent. Subjects are pairwise: each relying party sees its own pseudonymous
        customer reference (PCR).</p>
      <p>Clients must keep their secret confidential, protect <code>state</code> and <code>nonce</code>, and use
        PKCE (S256) where they can; public clients must.</p>
    </DocPage>
  );
}
