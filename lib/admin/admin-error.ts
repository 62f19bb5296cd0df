/**
 * An expected operator-facing failure (bad input, duplicate, unknown record): the admin CLI prints
 * its message as one line and exits non-zero. Anything else is an unexpected error. Thrown by the
 * admin functions of lib/clients and lib/subscribers.
 */
export class AdminError extends Error {
  override readonly name = "AdminError";
}
