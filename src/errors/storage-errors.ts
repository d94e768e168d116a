/**
 * The errors of the keystore and the database (re-exported by `errors.ts`).
 * @module
 */
import { HubError } from './hub-error.js';

/** A keystore that cannot be read, decrypted or written; the message never holds a secret. */
export class KeystoreError extends HubError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('internal', message, options);
  }
}

/** A credential name outside `[A-Za-z0-9_.-]{1,64}`. */
export class InvalidCredentialNameError extends HubError {
  /** The field it is about, as the API's `issues` name it: the web UI shows it by the name field. */
  readonly issues: readonly { readonly field: string; readonly message: string }[];
  constructor(name: string) {
    super('bad_request', `invalid credential name ${JSON.stringify(name)}: use 1 to 64 of A-Z a-z 0-9 _ . -`);
    this.issues = [{ field: 'name', message: this.message }];
  }
}

/**
 * A database that cannot be used (ADR 036): a malformed `BOTERNITY_DATABASE_URL`, a server
 * that does not answer, refused credentials, a failed migration. The message names the
 * database without its password and says what to check.
 */
export class DatabaseError extends HubError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('internal', message, options);
  }
}

/**
 * The database did not answer, within its time, what a request needs and memory cannot
 * stand in for (a token this replica has not seen lately, whether a session was ended): the
 * request is refused (503) rather than let through or failed as our bug.
 */
export class StoreUnavailableError extends HubError {
  constructor(what: string, options?: { cause?: unknown }) {
    super('store_unavailable', `the database does not answer (${what}): retry in a few seconds`, options);
  }
}
