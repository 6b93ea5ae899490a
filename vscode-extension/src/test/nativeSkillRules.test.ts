/** What Albedo leaves out beside VS Code's own skill support (nativeSkillRules.ts), without VS Code. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { albedoOnlyHover, hasNativeTwin, hoverKey } from '../nativeSkillRules';

describe('hasNativeTwin', () => {
  // VS Code 1.139.1's messages, as its validator showed them for the e2e fixtures.
  const vscodeName = { message: "The skill name 'bar' should match the folder name 'both'.", line: 1 };
  const vscodeDescription = { message: 'Skill should provide a description.', line: 0 };

  it("finds VS Code's finding of the same problem on the same line", () => {
    assert.ok(hasNativeTwin({ code: 'name-mismatch', message: 'name `bar` differs from its folder `both`', line: 1 }, [vscodeDescription, vscodeName]));
    assert.ok(hasNativeTwin({ code: 'description-missing', message: 'add a `description`', line: 0 }, [vscodeName, vscodeDescription]));
    assert.ok(hasNativeTwin({ code: 'description-missing', message: 'x', line: 2 }, [{ message: "The 'description' attribute should not be empty.", line: 2 }]));
  });

  it('keeps what VS Code does not say: another line, another problem, a code VS Code has no twin for', () => {
    assert.ok(!hasNativeTwin({ code: 'name-mismatch', message: 'x', line: 2 }, [vscodeName]));
    assert.ok(!hasNativeTwin({ code: 'name-mismatch', message: 'x', line: 0 }, [vscodeDescription]));
    assert.ok(!hasNativeTwin({ code: 'collision', message: 'x', line: 1 }, [vscodeName]));
    assert.ok(!hasNativeTwin({ message: 'no code', line: 1 }, [vscodeName]));
    assert.ok(!hasNativeTwin({ code: 'field-unknown', message: 'x', line: 3 }, [{ message: "Attribute 'allowed-tools' is not supported by VS Code skills. Supported: name.", line: 3 }]));
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
