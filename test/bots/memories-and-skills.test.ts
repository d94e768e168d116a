import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMemory } from '../../src/bots/add-memory.js';
import { completeSkillArgument } from '../../src/bots/complete-skill-argument.js';
import { createBot } from '../../src/bots/create-bot.js';
import { deleteMemory } from '../../src/bots/delete-memory.js';
import { deleteSkill } from '../../src/bots/delete-skill.js';
import { listMemories } from '../../src/bots/list-memories.js';
import { listSkills } from '../../src/bots/list-skills.js';
import { renderSkill } from '../../src/bots/render-skill.js';
import { saveSkill } from '../../src/bots/save-skill.js';
import { BotInputError, BotItemNotFoundError, UnknownBotError } from '../../src/errors.js';
import { createTestBotDeps } from '../support/bot-deps.js';
import { DIALECTS } from '../support/test-db.js';

type Deps = Awaited<ReturnType<typeof createTestBotDeps>>;

describe.each(DIALECTS)('memories (%s)', (dialect) => {
  let deps: Deps;
  beforeAll(async () => {
    deps = await createTestBotDeps({ dialect });
    await createBot(deps, { slug: 'mem', name: 'Mem' });
  });
  afterAll(async () => {
    await deps.close();
  });

  it('lists newest first, filters by category and honours limit', async () => {
    await addMemory(deps, 'mem', { content: 'likes tea', category: 'taste' });
    await addMemory(deps, 'mem', { content: 'lives in Lyon' });
    await addMemory(deps, 'mem', { content: 'likes jazz', category: 'taste' });
    expect((await listMemories(deps, 'mem')).map((m) => m.content)).toEqual([
      'likes jazz',
      'lives in Lyon',
      'likes tea',
    ]);
    expect((await listMemories(deps, 'mem', { category: 'taste' })).map((m) => m.content)).toEqual([
      'likes jazz',
      'likes tea',
    ]);
    expect((await listMemories(deps, 'mem', { limit: 1 })).map((m) => [m.content, m.category])).toEqual([
      ['likes jazz', 'taste'],
    ]);
    expect((await listMemories(deps, 'mem', { category: 'general' }))[0]?.content).toBe('lives in Lyon');
  });

  it('deletes one memory, and names one that does not exist', async () => {
    const memory = await addMemory(deps, 'mem', { content: 'temporary', category: 'scratch' });
    await deleteMemory(deps, 'mem', memory.id);
    expect(await listMemories(deps, 'mem', { category: 'scratch' })).toEqual([]);
    await expect(deleteMemory(deps, 'mem', memory.id)).rejects.toThrow(
      new BotItemNotFoundError('memory', 'mem', memory.id).message,
    );
  });

  it('refuses bad input and unknown bots, storing nothing', async () => {
    const before = await listMemories(deps, 'mem', { limit: 500 });
    await expect(addMemory(deps, 'mem', { content: '' })).rejects.toThrow(/^invalid memory: content:/);
    await expect(addMemory(deps, 'mem', { content: 'x', category: '<b>' })).rejects.toThrow(/category: categories/);
    await expect(addMemory(deps, 'nobody', { content: 'x' })).rejects.toBeInstanceOf(UnknownBotError);
    await expect(listMemories(deps, 'mem', { limit: 501 })).rejects.toThrow(/limit:/);
    expect(await listMemories(deps, 'mem', { limit: 500 })).toEqual(before);
  });
});

describe.each(DIALECTS)('skills (%s)', (dialect) => {
  let deps: Deps;
  const summarize = {
    name: 'summarize',
    description: 'Summarize a text',
    template: 'Summarize {{ text }} in a {{tone}} tone. Keep \\{{braces}}.',
    arguments: [
      { name: 'text', required: true },
      { name: 'tone', values: ['formal', 'friendly', 'Funny'] },
    ],
  };
  beforeAll(async () => {
    deps = await createTestBotDeps({ dialect });
    await createBot(deps, { slug: 'sk', name: 'Skilled' });
  });
  afterAll(async () => {
    await deps.close();
  });

  it('saves, lists, renders with arguments and replaces a skill', async () => {
    expect((await saveSkill(deps, 'sk', summarize)).created).toBe(true);
    expect(await renderSkill(deps, 'sk', 'summarize', { text: 'the report', tone: 'formal' })).toMatchObject({
      text: 'Summarize the report in a formal tone. Keep {{braces}}.',
    });
    expect((await renderSkill(deps, 'sk', 'summarize', { text: 'it' })).text).toBe(
      'Summarize it in a  tone. Keep {{braces}}.',
    );
    const replaced = await saveSkill(deps, 'sk', { ...summarize, template: 'TL;DR {{text}}' });
    expect(replaced.created).toBe(false);
    expect((await listSkills(deps, 'sk')).map((s) => [s.name, s.template])).toEqual([['summarize', 'TL;DR {{text}}']]);
    await saveSkill(deps, 'sk', summarize);
  });

  it('completes declared values by prefix, and nothing for an argument without values', async () => {
    expect(await completeSkillArgument(deps, 'sk', 'summarize', 'tone', 'f')).toEqual({
      values: ['formal', 'friendly', 'Funny'],
      total: 3,
      hasMore: false,
    });
    expect((await completeSkillArgument(deps, 'sk', 'summarize', 'tone', 'FO')).values).toEqual(['formal']);
    expect((await completeSkillArgument(deps, 'sk', 'summarize', 'text', '')).values).toEqual([]);
    await expect(completeSkillArgument(deps, 'sk', 'summarize', 'mood', '')).rejects.toThrow(
      'skill "summarize" has no argument "mood"',
    );
  });

  it('refuses a missing required argument and an undeclared one when rendering', async () => {
    await expect(renderSkill(deps, 'sk', 'summarize', { tone: 'formal' })).rejects.toThrow(
      'skill "summarize" needs argument "text"',
    );
    await expect(renderSkill(deps, 'sk', 'summarize', { text: 'a', mood: 'b' })).rejects.toThrow(
      'skill "summarize" has no argument "mood"; it takes: text, tone',
    );
    await expect(renderSkill(deps, 'sk', 'nope', {})).rejects.toBeInstanceOf(BotItemNotFoundError);
  });

  it.each([
    [{ ...summarize, name: 'Bad Name' }, /name: names are/],
    [
      { ...summarize, template: 'Hi {{who}}' },
      /template: \{\{who\}\} does not name a declared argument \(text, tone\)/,
    ],
    [{ ...summarize, template: 'Hi {{text.length}}' }, /does not name a declared argument/],
    [{ ...summarize, template: 'Hi {{text' }, /template: "\{\{" at character 4 is not closed/],
    [{ ...summarize, template: 'Hi {{te xt}}' }, /template: \{\{te xt\}\}: unexpected " " at character 3/],
    [{ ...summarize, arguments: [{ name: 'text' }, { name: 'text' }] }, /arguments\.1\.name: "text" is declared twice/],
  ])('refuses a bad skill %# with the field named, keeping the stored one', async (input, message) => {
    const error = await saveSkill(deps, 'sk', input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BotInputError);
    expect((error as Error).message).toMatch(message);
    expect((await listSkills(deps, 'sk')).map((s) => s.template)).toEqual([summarize.template]);
  });

  it('deletes a skill', async () => {
    await saveSkill(deps, 'sk', { name: 'tmp', template: 'x' });
    await deleteSkill(deps, 'sk', 'tmp');
    await expect(deleteSkill(deps, 'sk', 'tmp')).rejects.toThrow('bot "sk" has no skill "tmp"');
  });
});
