import { describe, expect, it } from 'vitest';
import {
  EMPTY_BOOKS,
  planApply,
  planCommand,
  planDone,
  planError,
  planReport,
  type SupervisorBooks,
} from '../../machines/supervisor-plan.js';
import { makeSpec } from './fixtures.js';

const a = makeSpec();
const a2 = makeSpec({ pingTimeoutMs: 1 });

describe('planApply', () => {
  it('spawns new servers, updates changed ones and removes missing ones', () => {
    const books: SupervisorBooks = { running: { keep: a, change: a, drop: a }, removing: {}, crashes: { change: 2 } };
    const plan = planApply(books, { keep: a, change: a2, fresh: a });
    expect(plan.commands).toEqual([
      { kind: 'send', name: 'drop', event: { type: 'server.remove' } },
      { kind: 'send', name: 'change', event: { type: 'server.update', spec: a2 } },
      { kind: 'spawn', name: 'fresh', spec: a, options: {} },
    ]);
    expect(plan.books).toEqual({ running: { keep: a, change: a2, fresh: a }, removing: { drop: null }, crashes: {} });
  });

  it('holds back a server whose old child is still being removed, and forgets it if dropped again', () => {
    const pending = planApply({ running: {}, removing: { x: null }, crashes: {} }, { x: a2 });
    expect(pending.commands).toEqual([]);
    expect(pending.books.removing).toEqual({ x: a2 });
    expect(planApply(pending.books, {}).books.removing).toEqual({ x: null });
  });
});

describe('planDone', () => {
  it('spawns the spec that waited for the name', () => {
    const plan = planDone({ running: {}, removing: { x: a2 }, crashes: {} }, 'x');
    expect(plan.commands).toEqual([
      { kind: 'stop', name: 'x' },
      { kind: 'spawn', name: 'x', spec: a2, options: {} },
    ]);
    expect(plan.books).toEqual({ running: { x: a2 }, removing: {}, crashes: {} });
  });

  it('only stops a child nobody waits for', () => {
    const plan = planDone({ running: {}, removing: { x: null }, crashes: {} }, 'x');
    expect(plan).toEqual({ books: EMPTY_BOOKS, commands: [{ kind: 'stop', name: 'x' }] });
  });
});

describe('planError', () => {
  const books: SupervisorBooks = { running: { x: a }, removing: {}, crashes: {} };

  it('respawns with the crash count as initial attempt, then disabled, then gives up', () => {
    const first = planError(books, 'x', new Error('boom'), 2);
    expect(first.commands).toEqual([
      { kind: 'stop', name: 'x' },
      { kind: 'spawn', name: 'x', spec: a, options: { initialAttempt: 1, initialError: { message: 'boom' } } },
    ]);
    const second = planError(first.books, 'x', 'again', 2);
    expect(second.commands[1]).toMatchObject({ options: { initialAttempt: 2, initialError: { message: 'again' } } });
    const third = planError(second.books, 'x', 'again', 2);
    expect(third.commands[1]).toMatchObject({ options: { startDisabled: 'exhausted' } });
    const fourth = planError(third.books, 'x', 'again', 2);
    expect(fourth.commands).toEqual([
      { kind: 'stop', name: 'x' },
      { kind: 'emit', event: { type: 'disabled', server: 'x', reason: 'exhausted' } },
    ]);
    expect(fourth.books).toEqual(EMPTY_BOOKS);
  });

  it('counts a crash during removal as the removal', () => {
    const plan = planError({ running: {}, removing: { x: a2 }, crashes: {} }, 'x', 'boom', 5);
    expect(plan.commands).toEqual([
      { kind: 'stop', name: 'x' },
      { kind: 'emit', event: { type: 'removed', server: 'x' } },
      { kind: 'spawn', name: 'x', spec: a2, options: {} },
    ]);
  });

  it('only stops an unknown child', () => {
    expect(planError(EMPTY_BOOKS, 'x', 'boom', 5).commands).toEqual([{ kind: 'stop', name: 'x' }]);
  });
});

describe('planCommand and planReport', () => {
  const crashed: SupervisorBooks = { running: { x: a }, removing: {}, crashes: { x: 3 } };

  it('forwards to running servers only; a manual connect forgives crashes', () => {
    expect(planCommand(crashed, 'y', 'server.connect').commands).toEqual([]);
    expect(planCommand(crashed, 'x', 'server.disconnect').books.crashes).toEqual({ x: 3 });
    const connect = planCommand(crashed, 'x', 'server.connect');
    expect(connect.commands).toEqual([{ kind: 'send', name: 'x', event: { type: 'server.connect' } }]);
    expect(connect.books.crashes).toEqual({});
  });

  it('re-emits events and forgets crashes once connected', () => {
    const event = { type: 'connecting', server: 'x', attempt: 2 } as const;
    expect(planReport(crashed, event)).toEqual({ books: crashed, commands: [{ kind: 'emit', event }] });
    const up = planReport(crashed, {
      type: 'connected',
      server: 'x',
      attempt: 0,
      transport: 'http',
      pid: null,
      toolCount: 0,
      resourceCount: 0,
      resourceTemplateCount: 0,
      promptCount: 0,
    });
    expect(up.books.crashes).toEqual({});
  });
});
