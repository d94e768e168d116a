/**
 * The CLI's exit codes (SPEC section 7: 0 success, 1 failure, 2 usage error), decided in one
 * place by the error's class and code (issue 20, ADR 029).
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/main.js';
import { HubError, ServiceUnreachableError, UsageError } from '../../src/errors.js';

describe('exitCodeOf', () => {
  it('is 2 for a command line that cannot be run as typed, 0 for help asked for, 1 for any failure', () => {
    expect(exitCodeOf(new UsageError('--port needs a number'))).toBe(2);
    expect(exitCodeOf(new CommanderError(1, 'commander.unknownOption', "unknown option '--x'"))).toBe(2);
    expect(exitCodeOf(new CommanderError(1, 'commander.help', '(outputHelp)'))).toBe(2);
    expect(exitCodeOf(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBe(0);
    expect(exitCodeOf(new CommanderError(0, 'commander.version', '0.1.0'))).toBe(0);
    expect(exitCodeOf(new ServiceUnreachableError('http://127.0.0.1:1', 'connection refused'))).toBe(1);
    // A message that reads like a usage error is still a failure: the class decides, not the words.
    expect(exitCodeOf(new HubError('bad_request', 'usage: bnity serve'))).toBe(1);
    expect(exitCodeOf(new Error('boom'))).toBe(1);
  });
});
