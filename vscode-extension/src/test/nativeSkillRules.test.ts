/** What Albedo leaves out beside VS Code's own skill support (nativeSkillRules.ts), without VS Code. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTree, skillBadge } from '../catalogTree';
import { albedoFindings, albedoOnlyHover, hasNativeTwin, hoverKey, SERVER_SOURCE } from '../nativeSkillRules';

describe('hasNativeTwin', () => {
  // VS Code 1.139.1's messages and severities, as its validator showed them for the e2e fixtures.
  const ERROR = 0;
  const WARNING = 1;
  const vscodeName = { message: "The skill name 'bar' should match the folder name 'both'.", line: 1, severity: WARNING };
  const vscodeDescription = { message: 'Skill should provide a description.', line: 0, severity: WARNING };
  const vscodeInvalid = { message: 'Skill name may only contain lowercase letters, numbers, and hyphens.', line: 1, severity: ERROR };

  it("finds VS Code's finding of the same problem on the same line, as grave as Albedo's", () => {
    assert.ok(hasNativeTwin({ code: 'name-invalid', message: 'x', line: 1, severity: ERROR }, [vscodeName, vscodeInvalid]));
    assert.ok(hasNativeTwin({ code: 'description-missing', message: 'x', line: 2, severity: ERROR }, [{ message: "The 'description' attribute should not be empty.", line: 2, severity: ERROR }]));
    // A warning of ours beside VS Code's warning of the same problem: one is enough.
    assert.ok(hasNativeTwin({ code: 'name-mismatch', message: 'x', line: 1, severity: WARNING }, [vscodeName]));
  });

  it("keeps Albedo's error beside VS Code's milder warning of the same problem (the skill is not loaded)", () => {
    assert.ok(!hasNativeTwin({ code: 'name-mismatch', message: 'name `bar` differs from its folder `both`', line: 1, severity: ERROR }, [vscodeDescription, vscodeName]));
    assert.ok(!hasNativeTwin({ code: 'description-missing', message: 'add a `description`', line: 0, severity: ERROR }, [vscodeName, vscodeDescription]));
  });

  it('keeps what VS Code does not say: another line, another problem, a code VS Code has no twin for', () => {
    assert.ok(!hasNativeTwin({ code: 'name-invalid', message: 'x', line: 2, severity: ERROR }, [vscodeInvalid]));
    assert.ok(!hasNativeTwin({ code: 'name-mismatch', message: 'x', line: 0, severity: WARNING }, [vscodeDescription]));
    assert.ok(!hasNativeTwin({ code: 'collision', message: 'x', line: 1, severity: WARNING }, [vscodeName]));
    assert.ok(!hasNativeTwin({ message: 'no code', line: 1, severity: WARNING }, [vscodeName]));
    assert.ok(!hasNativeTwin({ code: 'field-unknown', message: 'x', line: 3, severity: WARNING }, [{ message: "Attribute 'allowed-tools' is not supported by VS Code skills. Supported: name.", line: 3, severity: 3 }]));
  });
});

describe('albedoOnlyHover', () => {
  const server = '**`description`**: What the skill does.\n\n**Required** by Albedo.\n\n1–1,024 characters.';

  it("drops the summary VS Code's hover gives and keeps Albedo's rules", () => {
    assert.equal(hoverKey(server), 'description');
    assert.equal(albedoOnlyHover('description', server), '**Albedo** (`description`): **Required** by Albedo.\n\n1–1,024 characters.');
  });

  it('keeps a hover of any other shape whole', () => {
    assert.equal(albedoOnlyHover('description', 'One paragraph.'), 'One paragraph.');
    assert.equal(albedoOnlyHover('name', server), server);
    assert.equal(hoverKey('plain text'), undefined);
  });
});

describe('albedoFindings', () => {
  type Item = { source?: string; code?: string; line: number; message: string; severity: 'error' | 'warning' };
  const key = (item: Item) => JSON.stringify([item.code, item.line, item.message]);
  const nameMismatch: Item = { source: SERVER_SOURCE, code: 'name-mismatch', line: 1, message: 'name `bar` differs from its folder `both`', severity: 'error' };
  const collision: Item = { source: SERVER_SOURCE, code: 'collision', line: 1, message: 'skill `bar` is hidden by x', severity: 'warning' };
  const vscodeName: Item = { source: undefined, line: 1, message: "The skill name 'bar' should match the folder name 'both'.", severity: 'warning' };
  const otherExtension: Item = { source: 'markdownlint', code: 'MD041', line: 0, message: 'First line', severity: 'warning' };

  it("puts back what was left out beside VS Code's twin, and leaves out VS Code's and other extensions' findings", () => {
    assert.deepEqual(albedoFindings([collision, vscodeName, otherExtension], [nameMismatch], key), [collision, nameMismatch]);
  });

  it('counts a finding once when it is shown again (its twin went) before the filter ran anew', () => {
    assert.deepEqual(albedoFindings([nameMismatch, vscodeName], [{ ...nameMismatch }], key), [nameMismatch]);
  });

  it("keeps the skill's error badge in the Skills view while VS Code shows the twin as a warning", () => {
    const file = '/work/project/.agents/skills/both/SKILL.md';
    const counted = albedoFindings([vscodeName, otherExtension], [nameMismatch], key).map((item) => ({ ...item, path: file, related: [] }));
    const context = { workspaceFolders: ['/work/project'], home: '/home/ada' };
    const [node] = buildTree([], counted, context)[0].roots[0].skills;
    assert.deepEqual([node.errors, node.warnings], [1, 0]);
    assert.equal(skillBadge(node, context), '1 error');
    // What the view counted before: VS Code's holding only, so the error was gone and VS Code's warning counted.
    const before = [vscodeName, otherExtension].map((item) => ({ ...item, path: file, related: [] }));
    assert.deepEqual(buildTree([], before, context)[0].roots[0].skills[0].errors, 0);
  });
});
