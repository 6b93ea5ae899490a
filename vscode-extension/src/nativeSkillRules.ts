/**
 * What VS Code's own skill support already says about a SKILL.md, so Albedo does not say it twice (decided
 * without VS Code: node --test runs this module directly; it must not import `vscode`).
 *
 * From VS Code 1.139 a `SKILL.md` has the language id `skill`, with VS Code's own validator, hover and
 * completion of frontmatter keys. The facts below were read in VS Code 1.139.1's workbench (code-server
 * 4.139.1, `out/vs/code/browser/workbench/workbench.js` and `out/nls.messages.js`) and checked by running it;
 * docs/editors.md lists what its validator reports and where Albedo's rules differ.
 */

/** The server's `source` on every diagnostic (albedo_skills_ls/lsp/convert.py). */
export const SERVER_SOURCE = 'albedo-skills';

/** The language id VS Code gives SKILL.md when it has its own skill support (none in 1.96). */
export const NATIVE_SKILL_LANGUAGE = 'skill';

/**
 * The frontmatter keys VS Code 1.139.1 completes and describes on hover in a `skill` document (its skill
 * attribute table). Albedo's item or hover for the same key would be a second one.
 */
export const NATIVE_SKILL_KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'argument-hint',
  'user-invocable',
  'disable-model-invocation',
  'context',
]);

/**
 * Albedo codes whose problem VS Code 1.139.1's validator reports too, at the same place, in its words (its
 * English messages). Where its twin is shown at the same severity or a graver one, Albedo's copy is left out.
 * VS Code shows some of them (a name that differs from the folder, a missing description) as warnings while
 * for Albedo they keep the skill out of the catalog: then Albedo's error stays beside VS Code's warning, so the
 * Problems panel and the status bar never show a problem milder than Albedo's verdict (docs/editors.md).
 */
export const NATIVE_TWINS: Readonly<Record<string, RegExp>> = {
  'name-mismatch': /^The skill name '.*' should match the folder name '.*'\.$/s,
  'name-missing': /^(Skill should provide a name\.|The 'name' attribute must not be empty\.)$/,
  'name-invalid': /^Skill name may only contain lowercase letters, numbers, and hyphens\.$/,
  'description-missing': /^(Skill should provide a description\.|The 'description' attribute should not be empty\.)$/,
};

/** A diagnostic reduced to what the comparison reads. */
export interface Finding {
  code?: string;
  message: string;
  line: number;
  /** VS Code's DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint (lower is graver). */
  severity: number;
}

/**
 * Whether `ours` (an Albedo diagnostic) says what one of VS Code's findings on the same line says, at least
 * as gravely: only then may ours be left out.
 */
export function hasNativeTwin(ours: Finding, native: readonly Finding[]): boolean {
  const twin = ours.code !== undefined ? NATIVE_TWINS[ours.code] : undefined;
  return twin !== undefined && native.some((finding) => finding.line === ours.line && finding.severity <= ours.severity && twin.test(finding.message));
}

/**
 * Albedo's hover for a key VS Code describes too, without the summary VS Code's own hover gives: what is
 * left is Albedo's rules (required or not, bounds, whether Albedo reads it). The server writes a key's hover
 * as paragraphs, the first `**\`key\`**: summary` (albedo_skills_ls/skills/authoring/fields.py); any other
 * shape is kept whole.
 */
export function albedoOnlyHover(key: string, markdown: string): string {
  const paragraphs = markdown.split('\n\n');
  const lead = `**\`${key}\`**: `;
  if (paragraphs.length < 2 || !paragraphs[0].startsWith(lead)) {
    return markdown;
  }
  return [`**Albedo** (\`${key}\`): ${paragraphs[1]}`, ...paragraphs.slice(2)].join('\n\n');
}

/** The frontmatter key an Albedo hover is about (its first words, `**\`key\`**`). */
export function hoverKey(markdown: string): string | undefined {
  return /^\*\*`([^`]+)`\*\*/.exec(markdown)?.[1];
}

/**
 * Albedo's own findings on one file, whatever the middleware left out of what is shown: the server's items
 * VS Code holds (`shown`, every source; other sources are VS Code's validator or other extensions) and the
 * items left out beside their VS Code twin (`leftOut`), each once. `key` says when two items are the same
 * finding (one just shown again after its twin went). The Skills view counts these, so a skill keeps its
 * "1 error" badge while VS Code shows the twin as its own warning.
 */
export function albedoFindings<T extends { source?: string }>(shown: readonly T[], leftOut: readonly T[], key: (item: T) => string): T[] {
  const ours = shown.filter((item) => item.source === SERVER_SOURCE);
  const seen = new Set(ours.map(key));
  return [...ours, ...leftOut.filter((item) => !seen.has(key(item)))];
}
