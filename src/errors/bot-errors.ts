/**
 * The errors of bots (SPEC B1–B4, G6): refusals and failures of bot operations, their
 * providers and templates (re-exported by `errors.ts`).
 * @module
 */
import { HubError, type HubErrorCode } from './hub-error.js';

/**
 * Why a bot operation failed, finer than `code` (which picks the HTTP status): e.g.
 * `no_provider` and `invalid_input` are both `bad_request`; `chat__{slug}` names the reason.
 */
export type BotErrorReason =
  | 'unknown_bot'
  | 'bot_exists'
  | 'invalid_input'
  | 'not_found'
  | 'no_provider'
  | 'no_credential'
  | 'provider_unreachable'
  | 'provider_failed'
  | 'message_too_large'
  | 'budget_exceeded';

/** A bot operation refused or failed on purpose (SPEC B1–B4, G6). */
export class BotError extends HubError {
  constructor(
    readonly reason: BotErrorReason,
    code: HubErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** A bot slug that is not in the registry. */
export class UnknownBotError extends BotError {
  constructor(readonly slug: string) {
    super('unknown_bot', 'unknown_bot', `bot "${slug}" does not exist`);
  }
}

/** A bot slug already taken. */
export class BotExistsError extends BotError {
  constructor(readonly slug: string) {
    super('bot_exists', 'conflict', `bot "${slug}" already exists; pick another slug or update that bot`);
  }
}

/** Input that does not validate; `issues` name each field (the message names them too, on one line). */
export class BotInputError extends BotError {
  constructor(
    message: string,
    readonly issues: readonly { readonly field: string; readonly message: string }[] = [],
  ) {
    super('invalid_input', 'bad_request', message);
  }
}

/** A skill, workflow, memory or chat session of a bot that does not exist. */
export class BotItemNotFoundError extends BotError {
  constructor(
    readonly kind: 'skill' | 'workflow' | 'memory' | 'chat session',
    readonly slug: string,
    readonly item: string,
  ) {
    super('not_found', 'not_found', `bot "${slug}" has no ${kind} "${item}"`);
  }
}

/** The bot's LLM provider is missing, misconfigured, unreachable or failed. */
export class ProviderError extends BotError {
  constructor(
    reason: 'no_provider' | 'no_credential' | 'provider_unreachable' | 'provider_failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    const code =
      reason === 'provider_unreachable'
        ? 'upstream_unavailable'
        : reason === 'provider_failed'
          ? 'upstream_failed'
          : 'bad_request';
    super(reason, code, message, options);
  }
}

/** A chat message longer than the limit. */
export class MessageTooLargeError extends BotError {
  constructor(
    readonly length: number,
    readonly limit: number,
  ) {
    super(
      'message_too_large',
      'payload_too_large',
      `message is ${length} characters, over the limit of ${limit}; send a shorter one`,
    );
  }
}

/** A sampling request the bot's token budget cannot pay for (X6). */
export class BotBudgetExceededError extends BotError {
  constructor(message: string) {
    super('budget_exceeded', 'forbidden', message);
  }
}

/** A `{{ … }}` template that does not parse, or a reference with nothing behind it at run time. */
export class TemplateError extends HubError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** A bot tool or prompt name that does not exist here (for this caller, on this endpoint). */
export class UnknownBotToolError extends BotError {
  constructor(
    readonly kind: 'tool' | 'prompt',
    readonly item: string,
  ) {
    super('not_found', 'not_found', `no bot ${kind} "${item}" here`);
  }
}
