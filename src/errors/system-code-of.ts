/**
 * The `code` a failure of Node or of fetch carries (`ECONNREFUSED`, `ENOTFOUND`,
 * `UND_ERR_SOCKET` …), found on the error or down its `cause` chain: what the upstream and
 * provider failures are classified by, never their message text (issue 20, ADR 029).
 * @module
 */

const SYSTEM_CODE = /^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/;

/** The first system or undici `code` in `error`'s cause chain; null when there is none. */
export function systemCodeOf(error: unknown): string | null {
  for (let e = error, depth = 0; e instanceof Object && depth < 8; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SYSTEM_CODE.test(code)) return code;
  }
  return null;
}
