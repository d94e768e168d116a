import type { ErrorInfo } from './types.js';

/** Reduce anything thrown to `{ message, code }` for logs, events and rows. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const { code, authorizationServer } = error as { code?: unknown; authorizationServer?: unknown };
    const message = error.message || error.name;
    if (code === undefined || code === null) return { message };
    return typeof authorizationServer === 'string'
      ? { message, code: String(code), authorizationServer }
      : { message, code: String(code) };
  }
  return { message: typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error)) };
}

/** True for a failure (thrown, or already reduced to `ErrorInfo`) that asks for an OAuth authorization (issue 23). */
export function isAuthorizationError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'needs_authorization';
}
