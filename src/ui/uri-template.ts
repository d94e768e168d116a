/**
 * A resource template's URI (RFC 6570, the expressions MCP servers use): the variables it
 * names, each once, in order; and the URI with values filled in. Operators `+ # . / ; ? &`
 * are honoured; modifiers (`*`, `:n`) are read past (a value is one string here). An empty
 * value is left out, as the RFC does for an undefined variable.
 * @module
 */

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

/** How each operator starts, joins and names its values, and whether reserved characters pass. */
type Rule = { first: string; sep: string; named: boolean; reserved: boolean };
const SIMPLE: Rule = { first: '', sep: ',', named: false, reserved: false };
const OPERATORS: Readonly<Record<string, Rule>> = {
  '+': { first: '', sep: ',', named: false, reserved: true },
  '#': { first: '#', sep: ',', named: false, reserved: true },
  '.': { first: '.', sep: '.', named: false, reserved: false },
  '/': { first: '/', sep: '/', named: false, reserved: false },
  ';': { first: ';', sep: ';', named: true, reserved: false },
  '?': { first: '?', sep: '&', named: true, reserved: false },
  '&': { first: '&', sep: '&', named: true, reserved: false },
};

/** A variable's name without its modifier. */
const nameOf = (spec: string) => spec.trim().replace(/(\*|:\d+)$/, '');

/** The variables of `template`, each once, in the order they appear. */
export function templateVariables(template: string): string[] {
  const names = [...template.matchAll(EXPRESSION)].flatMap((m) => (m[2] ?? '').split(',').map(nameOf));
  return [...new Set(names.filter(Boolean))];
}

/** `template` with `values` filled in. */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(EXPRESSION, (_all, op: string, list: string) => {
    const rule = OPERATORS[op] ?? SIMPLE;
    const encode = rule.reserved ? encodeURI : encodeURIComponent;
    const parts = list
      .split(',')
      .map(nameOf)
      .filter((name) => values[name])
      .map((name) => `${rule.named ? `${name}=` : ''}${encode(values[name] ?? '')}`);
    return parts.length > 0 ? rule.first + parts.join(rule.sep) : '';
  });
}
