import type { ErrorInfo } from './types.js';

/** Reduce anything thrown to `{ message, code }` for logs, events and rows. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const message = error.message || error.name;
    return code === undefined || code === null ? { message } : { message, code: String(code) };
  }
  return { message: typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error)) };
}
