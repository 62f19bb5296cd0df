import type { ClientProvenance } from "@/lib/clients/client-provenance";
import type { Messages } from "@/lib/i18n/get-messages";

/**
 * The mark of a self-registered app (lib/clients/client-provenance.ts) beside its name on every subscriber screen
 * (sign-in and consent steps, the handset's cards, the text-message link, the account page): the operator did not
 * check it, and where it sends the subscriber back to (the request's redirect host on the screens of an
 * authorization request; elsewhere the proved sector, or that the app's website is not verified). Nothing
 * for the operator's own clients. Plain text with a border, so it reads the same without a stylesheet (WAP).
 */
export function ClientMark({ t, mark, className = "" }: { t: Messages; mark?: ClientProvenance | null; className?: string }) {
  if (!mark) return null;
  return (
    <p className={`client-mark self-registered rounded border border-amber-700 bg-amber-50 px-2 py-1 text-sm text-amber-950 `
      + className}>
      {mark.host === null ? t.clientMark.selfRegisteredUnverified : t.clientMark.selfRegistered(mark.host)}
    </p>
  );
}

/** The heading of a self-registered app's free text (binding message, context): not checked, no instructions. */
export function UnverifiedNote({ t }: { t: Messages }) {
  return (
    <>
      <p className="unverified-title font-semibold">{t.clientMark.unverifiedTitle}</p>
      <p className="unverified-text">{t.clientMark.unverifiedText}</p>
    </>
  );
}
