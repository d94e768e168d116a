/**
 * The patterns of the upstream-text sanitizer (SPEC X4): what is stripped and which
 * instruction-like phrases are flagged. Pure data; `sanitize-text.ts` applies it.
 * @module
 */

/** What kind of upstream text is being sanitized; it picks the default limits. */
export type SanitizeKind = 'description' | 'result';

/** Default maximum length (UTF-16 code units) of one sanitized string, per kind. */
export const DEFAULT_MAX_LENGTH: Readonly<Record<SanitizeKind, number>> = { description: 500, result: 100_000 };

/** Appended (inside the limit) to a string cut at its maximum length. */
export const TRUNCATION_MARKER = '…[truncated]';

/** Tags whose whole block, content included, is removed (compared case-insensitively). */
export const INJECTION_TAGS = ['important', 'system', 'hidden', 'secret', 'instructions', 'admin', 'system-prompt'];

/** An opening injection tag, then its content up to the matching close tag or the end of the text. */
export const INJECTION_BLOCK = new RegExp(
  `<(${INJECTION_TAGS.join('|')})(?=[\\s/>])[^<>]*(?<!\\/)>[\\s\\S]*?(?:<\\/\\1\\s*>|$)`,
  'gi',
);

/** An HTML comment, also an unterminated one (to the end of the text). */
export const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/**
 * An HTML/XML-like tag: a closing tag; an opening tag whose first attribute has a value
 * (`<img src=…>`); or any other opening tag not right after an identifier character, so
 * generics (`Array<string>`, `Map<K, V>`, `f<T extends U>`) and `a < b > c` stay.
 */
export const HTML_TAG =
  /<\/[A-Za-z][\w:-]*\s*>|<[A-Za-z][\w:-]*\s+[\w:-]+\s*=[^<>]*>|(?<![\w$])<[A-Za-z][\w:-]*(?:[\s/][^<>]*)?>/g;

/** A markdown image (`![alt](url)`): rendering it fetches the URL, a classic exfiltration beacon. */
export const MARKDOWN_IMAGE = /!\[[^[\]\n]*\]\(\s*[^()\s]*(?:\s+"[^"\n]{0,200}")?\s*\)/g;

/** A markdown link; its URL is checked with `BEACON_URL`. */
export const MARKDOWN_LINK = /\[([^[\]\n]*)\]\(\s*([^()\s]+)(?:\s+"[^"\n]{0,200}")?\s*\)/g;

/** A link URL that carries data out: a query string, or a data:/javascript: URL. */
export const BEACON_URL = /\?|^(?:data|javascript|vbscript):/i;

/**
 * Invisible Unicode: tag characters U+E0000–E007F (ASCII smuggling; also breaks subdivision
 * flag emoji such as England's, accepted), zero-width U+200B–U+200D, U+2060–U+2064, U+FEFF
 * (ZWJ is removed too, which splits emoji ZWJ sequences into their parts: accepted, a ZWJ
 * carries no meaning a model needs), bidi controls U+200E/F, U+202A–E, U+2066–9, U+061C,
 * the deprecated format controls U+206A–F, soft hyphen U+00AD, Mongolian vowel separator
 * U+180E, interlinear annotation U+FFF9–B and the supplementary variation selectors
 * U+E0100–E01EF (used to smuggle bytes). Emoji variation selectors U+FE00–FE0F stay.
 */
export const INVISIBLE_UNICODE =
  /[\u{E0000}-\u{E007F}\u200B\u200C\u200E\u200F\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u206F\u061C\u00AD\u180E\uFFF9-\uFFFB]|\u200D|[\u{E0100}-\u{E01EF}]/gu;

/** Tag characters that mirror printable ASCII (U+E0020–E007E): decoded to scan smuggled text. */
export const TAG_ASCII = /[\u{E0020}-\u{E007E}]/gu;

/** C0/C1 control characters except tab, line feed and carriage return (ANSI escapes and the like). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Padding thresholds: a horizontal whitespace run longer than `spaces`, more than `blankLines` blank lines. */
export const PADDING: Readonly<Record<SanitizeKind, { spaces: number; blankLines: number }>> = {
  description: { spaces: 20, blankLines: 2 },
  // Results carry file contents and code, where indentation is data: only absurd runs go.
  result: { spaces: 200, blankLines: 20 },
};

/**
 * Instruction-like phrases: flagged as `instruction:<name>`, never stripped. `leads` are the
 * texts a match begins with (in any case): a pattern runs only on text holding one of its
 * leads (`find-instructions.ts`). A pattern added here needs its leads; the tests in
 * test/guard/find-instructions.test.ts hold every match to begin with one.
 */
export const INSTRUCTION_PHRASES: ReadonlyArray<{
  readonly name: string;
  readonly leads: readonly string[];
  readonly pattern: RegExp;
}> = [
  // The classic override of the agent's earlier instructions.
  {
    name: 'ignore_previous',
    leads: ['ignore', 'disregard', 'forget', 'override'],
    pattern:
      /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|other)\s+(?:instructions|prompts?|rules|directions)/i,
  },
  // Imperatives addressed at the model.
  { name: 'you_must', leads: ['you'], pattern: /\byou\s+must\b/i },
  // Tool-poisoning preamble (Invariant Labs): a step to run before any use of the tool.
  { name: 'before_using_tool', leads: ['before'], pattern: /\bbefore\s+using\s+(?:this|any|the|that)\s+tool/i },
  // Hiding the attack from the person in the loop.
  {
    name: 'conceal_from_user',
    leads: ['do', 'never'],
    pattern: /\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention|reveal|notify|show|alert)\b[^.\n]{0,40}\buser/i,
  },
  { name: 'secretly', leads: ['secretly'], pattern: /\bsecretly\b/i },
  { name: 'hidden_instruction', leads: ['hidden'], pattern: /\bhidden\s+instructions?\b/i },
  // Talk about, or an attempt to replace, the system prompt.
  { name: 'system_prompt', leads: ['system'], pattern: /\bsystem\s+prompt\b/i },
  // Role reassignment.
  {
    name: 'role_override',
    leads: ['you', 'new', 'from'],
    pattern: /\b(?:you\s+are\s+now|new\s+instructions\s*:|from\s+now\s+on,?\s+you)\b/i,
  },
  // Cross-tool shadowing: rules about how another tool must behave.
  {
    name: 'tool_shadowing',
    leads: ['when'],
    pattern: /\bwhen(?:ever)?\s+(?:the\s+)?[`'"]?[\w.-]+[`'"]?\s+tool\s+is\s+(?:used|called|invoked|run)/i,
  },
  // Redirecting data to a third party (an address or URL after send/forward/bcc/share …).
  {
    name: 'exfiltrate_to',
    leads: ['send', 'forward', 'bcc', 'cc', 'copy', 'share', 'upload', 'post', 'exfiltrate', 'redirect'],
    pattern:
      /\b(?:send|forward|bcc|cc|copy|share|upload|post|exfiltrate|redirect)\b(?:[^.\n]|\.(?=\S)){0,100}?(?:[\w.+-]+@[\w-]+\.\w|https?:\/\/)/i,
  },
  // Credential files.
  { name: 'ssh_key', leads: ['~/.', 'id_'], pattern: /~\/\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b/i },
  {
    name: 'aws_credentials',
    leads: ['~/.', 'aws_secret_access_key'],
    pattern: /~\/\.aws\b|\baws_secret_access_key\b/i,
  },
  {
    name: 'mcp_config',
    leads: ['~/.', 'mcp', 'claude_desktop_config'],
    pattern: /~\/\.cursor\b|\bmcp\.json\b|\bclaude_desktop_config\.json\b/i,
  },
  // A secret moved somewhere: password/key/token near send/pass/forward, in either order.
  {
    name: 'credential_exfiltration',
    leads: ['pass', 'api', 'private', 'credentials', 'send', 'forward', 'post', 'upload'],
    pattern:
      /\b(?:passwords?|passwd|api[_ -]?keys?|private\s+keys?|credentials)\b[^.\n]{0,60}\b(?:send|forward|pass|post|upload|include)\b|\b(?:send|forward|pass|post|upload)\b[^.\n]{0,60}\b(?:passwords?|passwd|api[_ -]?keys?|private\s+keys?|credentials)\b/i,
  },
  // A file's content smuggled through a tool argument (the `sidenote` trick).
  {
    name: 'smuggle_parameter',
    leads: ['pass'],
    pattern: /\bpass\b[^.\n]{0,60}\bas\b[^.\n]{0,30}\b(?:parameter|argument|sidenote)\b/i,
  },
];
