import type { Metadata } from "next";
import { servicePath } from "@/lib/interaction/screen-headers";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Register this phone", referrer: "no-referrer", robots: { index: false, follow: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const ERRORS: Record<string, string> = {
  msisdn_invalid: "Enter your full mobile number with the country code.",
  code_missing: "Enter the code we sent.",
  code_invalid: "That code is not right. Try again.",
  code_expired: "That code has expired. Start again.",
  bad_request: "That did not work. Try again.",
};

/**
 * GET /handset/enrol: registers this handset as the subscriber's authorization device. Step 1 the
 * number (a code is sent through the messaging channel, readable in /handset/inbox locally); step 2
 * the code and a name for the phone. Plain forms, no script.
 */
export default async function EnrolPage({ searchParams }: Props) {
  const query = await searchParams;
  const error = typeof query.error === "string" ? ERRORS[query.error] : undefined;
  const codeStep = query.step === "code" && query.error !== "code_expired";
  const field = "mt-1 block w-full rounded border border-slate-300 px-2 py-1";
  return (
    <main className="mx-auto max-w-sm p-4">
      <h1 className="text-xl font-semibold">Register this phone</h1>
      <p className="mb-3 text-sm text-slate-600">Approve sign-ins and payments on this phone.</p>
      {error && <p role="alert" className="mb-3 rounded bg-red-100 p-2 text-sm">{error}</p>}
      {codeStep ? (
        <form method="post" action={servicePath("/handset/enrol/confirm")} className="space-y-3">
          <label className="block text-sm">Code
            <input name="code" inputMode="numeric" autoComplete="one-time-code" required maxLength={12} className={field} />
          </label>
          <label className="block text-sm">Name of this phone
            <input name="name" defaultValue="My phone" maxLength={60} className={field} />
          </label>
          <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">Register</button>
        </form>
      ) : (
        <form method="post" action={servicePath("/handset/enrol/start")} className="space-y-3">
          <label className="block text-sm">Mobile number
            <input name="msisdn" type="tel" required maxLength={40} className={field} />
          </label>
          <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">Send code</button>
        </form>
      )}
    </main>
  );
}
