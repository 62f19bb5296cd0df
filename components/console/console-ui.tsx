/**
 * The console's building blocks: plain HTML forms (no script needed) carrying the session's CSRF token,
 * the page heading, the outcome line after an action (`?done=` / `?e=`), and the shared classes.
 * Every area of the console (app/console/(app)/*) builds its pages from these.
 */
export const ui = {
  page: "space-y-6",
  h1: "text-2xl font-semibold",
  h2: "text-lg font-semibold",
  text: "text-base",
  muted: "text-slate-600",
  table: "w-full border-collapse text-left text-sm",
  th: "border-b border-slate-300 px-2 py-1 font-semibold",
  td: "border-b border-slate-200 px-2 py-1 align-top",
  input: "rounded border border-slate-500 px-2 py-1 text-base",
  label: "block font-medium",
  button: "rounded bg-blue-800 px-3 py-1 font-medium text-white hover:bg-blue-900 focus:outline focus:outline-2 focus:outline-offset-2 focus:outline-blue-800",
  danger: "rounded bg-red-800 px-3 py-1 font-medium text-white hover:bg-red-900 focus:outline focus:outline-2 focus:outline-offset-2 focus:outline-red-800",
  secondary: "rounded border border-slate-600 px-3 py-1 font-medium text-slate-900 hover:bg-slate-100",
  link: "text-blue-800 underline",
  section: "space-y-3 rounded-lg border border-slate-300 bg-white p-4",
} as const;

/** A POST form to a console action (lib/console/console-post.ts) with the session's CSRF token. */
export function ConsoleForm({ action, csrfToken, children, className }: {
  action: string; csrfToken: string; children: React.ReactNode; className?: string;
}) {
  return (
    <form method="post" action={action} className={className}>
      <input type="hidden" name="csrf_token" value={csrfToken} />
      {children}
    </form>
  );
}

/** The line saying what the last action did (`done`) or why it was refused (`e`), announced to screen readers. */
export function Notice({ done, error }: { done?: string | null; error?: string | null }) {
  if (error) return <p role="alert" className="rounded border border-red-700 bg-red-50 p-2 text-red-900">{error}</p>;
  if (done) return <p role="status" className="rounded border border-green-700 bg-green-50 p-2 text-green-900">{done}</p>;
  return null;
}

/**
 * A data table of the console: the caption (for screen readers), one header cell per column (`scope="col"`)
 * and the rows given as children (`<tr>`s, each starting with its `<th scope="row">` where a row has a name).
 */
export function ConsoleTable({ caption, columns, children }: {
  caption?: string; columns: readonly React.ReactNode[]; children: React.ReactNode;
}) {
  return (
    <table className={ui.table}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>{columns.map((c, i) => <th key={i} scope="col" className={ui.th}>{c}</th>)}</tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
