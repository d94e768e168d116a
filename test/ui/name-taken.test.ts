import { describe, expect, it } from 'vitest';
import { nameTaken } from '../../src/ui/name-taken.js';

describe('nameTaken', () => {
  it('refuses a name in the list, trimmed as it is saved', () => {
    expect(nameTaken(' greet ', ['greet', 'sum'], 'skill')).toBe(
      'this bot already has a skill named "greet": pick another name, or edit that skill',
    );
    expect(nameTaken('sum', ['greet', 'sum'], 'workflow')).toMatch(/a workflow named "sum"/);
  });
  it('lets through a new name, and the name of the item being edited', () => {
    expect(nameTaken('fresh', ['greet'], 'skill')).toBeNull();
    expect(nameTaken('greet', ['greet'], 'skill', 'greet')).toBeNull();
  });
  it('compares names exactly, as the API keys them', () => {
    expect(nameTaken('Greet', ['greet'], 'skill')).toBeNull();
  });
});
