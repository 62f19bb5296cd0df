import { servicePath } from "@/lib/interaction/screen-headers";

/**
 * A plain HTML form posting to `/interaction/{id}/<step>` (a route handler, so it works with
 * JavaScript disabled and can be replayed by the conformance suite), carrying the CSRF token.
 */
export function ScreenForm({ id, step, csrf, className, children }: {
  id: string; step: string; csrf: string; className?: string; children: React.ReactNode;
}) {
  return (
    <form method="post" action={servicePath(`/interaction/${id}/${step}`)} className={className}>
      <input type="hidden" name="csrf_token" value={csrf} />
      {children}
    </form>
  );
}
