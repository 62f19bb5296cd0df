import { brandLogo, brandName, supportUrl, themeHref } from "./brand";

/**
 * The brand line at the top of every frame: the operator's logo (alt text: its name, so the name is
 * read once) or its name as text. `logo: false` (the WAP display) keeps it text only. Also links the
 * theme stylesheet when brand colours are configured (React hoists the <link> into <head>; the CSP's
 * `style-src 'self'` allows it).
 */
export function BrandLine({ t, className, logoClassName = "h-8 w-auto", logo = true }: {
  t: { lang: string; brand: string }; className: string; logoClassName?: string; logo?: boolean;
}) {
  const name = brandName(t);
  const image = logo ? brandLogo() : undefined;
  const href = logo ? themeHref() : undefined; // the WAP display: no logo, no stylesheet
  return (
    <>
      {href && <link rel="stylesheet" href={href} precedence="high" />}
      <p className={className}>
        {/* eslint-disable-next-line @next/next/no-img-element -- a small local file, no optimisation wanted */}
        {image ? <img src={image.src} alt={name} className={logoClassName} /> : name}
      </p>
    </>
  );
}

/** The operator's support link (BRAND_SUPPORT_URL), for a frame's footer; nothing when not configured. */
export function SupportLink({ t, className }: { t: { branding: { support: string } }; className: string }) {
  const url = supportUrl();
  if (!url) return null;
  return <a className={className} href={url}>{t.branding.support}</a>;
}
