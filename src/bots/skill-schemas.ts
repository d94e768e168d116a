/**
 * The shapes of skills (SPEC B3): a prompt template whose `{{argument}}` references must
 * name declared arguments, checked when the skill is saved.
 * @module
 */
import { z } from 'zod';
import { TemplateError } from '../errors.js';
import type { SkillRow } from '../storage/bot-skill-repo.js';
import { ItemNameSchema } from './item-name.js';
import { parseTemplate } from './parse-template.js';

/** A declared argument; `values` are offered as completions. */
export const SkillArgumentSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'argument names are a letter or _ then letters, digits, _ or -'),
    description: z.string().max(500).optional(),
    required: z.boolean().optional(),
    values: z.array(z.string().min(1).max(200)).max(500).optional(),
  })
  .strict();
export type SkillArgument = z.infer<typeof SkillArgumentSchema>;

/** Create or replace a skill. */
export const SaveSkillInputSchema = z
  .object({
    name: ItemNameSchema,
    description: z.string().max(2_000).optional(),
    template: z.string().min(1).max(32_000),
    arguments: z.array(SkillArgumentSchema).max(32).default([]),
  })
  .strict()
  .superRefine((skill, ctx) => {
    const declared = new Set<string>();
    skill.arguments.forEach((arg, i) => {
      if (declared.has(arg.name))
        ctx.addIssue({ code: 'custom', path: ['arguments', i, 'name'], message: `"${arg.name}" is declared twice` });
      declared.add(arg.name);
    });
    try {
      for (const part of parseTemplate(skill.template)) {
        if (typeof part === 'string') continue;
        const [name] = part.path;
        if (part.path.length !== 1 || typeof name !== 'string' || !declared.has(name))
          ctx.addIssue({
            code: 'custom',
            path: ['template'],
            message: `{{${part.source}}} does not name a declared argument (${[...declared].join(', ') || 'none declared'})`,
          });
      }
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      ctx.addIssue({ code: 'custom', path: ['template'], message: error.message });
    }
  });

/** A skill as returned. */
export type Skill = {
  name: string;
  description: string;
  template: string;
  arguments: SkillArgument[];
  createdAt: string;
  updatedAt: string;
};

/** The API shape of a skill row. */
export function toSkill(row: SkillRow): Skill {
  return {
    name: row.name,
    description: row.description,
    template: row.template,
    arguments: row.arguments,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
