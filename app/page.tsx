import { DocPage } from "@/components/doc-page";
import { brandName } from "@/lib/branding/brand";

export default function Home() {
  return (
    <DocPage title={brandName({ lang: "en", brand: "Operator Identity" })}>
      <p>Sign in to apps and websites with your mobile number.</p>
      <ul className="list-disc pl-6">
        <li><a className="underline" href="/.well-known/openid-configuration">Provider metadata</a></li>
        <li><a className="underline" href="/docs">Developer documentation</a></li>
        <li><a className="underline" href="/policy">Operator policy</a></li>
        <li><a className="underline" href="/terms">Terms of service</a></li>
      </ul>
    </DocPage>
  );
}
