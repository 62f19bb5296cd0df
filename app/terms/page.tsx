import { DocPage } from "@/components/doc-page";

export default function TermsPage() {
  return (
    <DocPage title="Terms of service">
      <p>The operator identity service lets subscribers prove who they are to relying parties with their mobile
        number. Subscribers decide, on each consent screen, which attributes are shared.</p>
      <p>Relying parties may use released attributes only for the purpose shown to the subscriber, and must
        delete them when the subscriber asks.</p>
    </DocPage>
  );
}
