/**
 * What a provider failure says to a person: which provider, and whether it could not be
 * reached, dropped the connection, or answered with an error. Never the credential.
 * @module
 */
import { toErrorInfo } from '../../machines/index.js';
import { ProviderError, systemCodeOf } from '../errors.js';

/** Connection errors that mean nothing answered at that address. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/**
 * Map an `openai` client error (or any other) for the provider at `baseUrl` to a ProviderError.
 * Async: `openai` is loaded with the first provider (already there when one of its calls failed).
 */
export async function toProviderError(error: unknown, baseUrl: string, timeoutMs: number): Promise<ProviderError> {
  if (error instanceof ProviderError) return error;
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = await import('openai');
  const options = { cause: error };
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderError(
      'provider_unreachable',
      `provider ${baseUrl} did not answer within ${timeoutMs} ms`,
      options,
    );
  const code = systemCodeOf(error);
  if (error instanceof APIConnectionError && (code === null || UNREACHABLE.has(code)))
    return new ProviderError(
      'provider_unreachable',
      `provider ${baseUrl} is unreachable${code ? ` (${code})` : ''}: check its baseUrl and that it is running`,
      options,
    );
  if (code?.startsWith('UND_ERR'))
    return new ProviderError(
      'provider_failed',
      `provider ${baseUrl} closed the connection before its answer was complete`,
      options,
    );
  if (error instanceof APIError && error.status !== undefined)
    return new ProviderError('provider_failed', `provider ${baseUrl} answered ${error.message}`, options);
  return new ProviderError('provider_failed', `provider ${baseUrl} failed: ${toErrorInfo(error).message}`, options);
}
