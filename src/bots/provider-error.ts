/**
 * What a provider failure says to a person: which provider, and whether it could not be
 * reached or answered with an error. Never the credential.
 * @module
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { toErrorInfo } from '../../machines/index.js';
import { ProviderError } from '../errors.js';

/** The first `code` (e.g. ECONNREFUSED) in an error's cause chain. */
function causeCode(error: unknown): string | null {
  for (let e = error, depth = 0; e instanceof Object && depth < 8; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return null;
}

/** Map an `openai` client error (or any other) for the provider at `baseUrl` to a ProviderError. */
export function toProviderError(error: unknown, baseUrl: string, timeoutMs: number): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderError('provider_unreachable', `provider ${baseUrl} did not answer within ${timeoutMs} ms`, {
      cause: error,
    });
  if (error instanceof APIConnectionError) {
    const code = causeCode(error);
    return new ProviderError(
      'provider_unreachable',
      `provider ${baseUrl} is unreachable${code ? ` (${code})` : ''}: check its baseUrl and that it is running`,
      { cause: error },
    );
  }
  if (error instanceof APIError && error.status !== undefined)
    return new ProviderError('provider_failed', `provider ${baseUrl} answered ${error.message}`, { cause: error });
  return new ProviderError('provider_failed', `provider ${baseUrl} failed: ${toErrorInfo(error).message}`, {
    cause: error,
  });
}
