/** albedoSkills.copilotSkillLocations: what goes into VS Code's chat.agentSkillsLocations (nativeSkillLocations.ts). */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { albedoLocations, USER_LOCATIONS, WORKSPACE_LOCATIONS, withAlbedoLocations, withoutAlbedoLocations } from '../nativeSkillLocations';
import { withoutLaunchSettings } from '../settings';

// VS Code 1.139.1's default value of chat.agentSkillsLocations (its workbench.js).
const VSCODE_DEFAULTS = { '.agents/skills': true, '.github/skills': true, '.claude/skills': true, '~/.agents/skills': true, '~/.copilot/skills': true, '~/.claude/skills': true };

describe('albedoLocations', () => {
  it("names Albedo's roots as VS Code's setting takes them: relative, or under ~/", () => {
    assert.deepEqual(albedoLocations(true, ''), ['.albedo/skills', '.agents/skills', '~/.albedo/skills', '~/.agents/skills', '~/.prime/agent/skills']);
    for (const location of [...WORKSPACE_LOCATIONS, ...USER_LOCATIONS]) {
      assert.ok(!location.startsWith('/') && !location.includes('\\'), location);
    }
  });

  it('leaves out the user roots when they are off, or under another home (absolute paths are refused there)', () => {
    assert.deepEqual(albedoLocations(false, ''), ['.albedo/skills', '.agents/skills']);
    assert.deepEqual(albedoLocations(true, '/srv/ada'), ['.albedo/skills', '.agents/skills']);
  });
});

describe('withAlbedoLocations', () => {
  it("adds only what VS Code does not read yet, keeping the person's own entries", () => {
    const user = { 'my-skills': true };
    const added = withAlbedoLocations(user, { ...VSCODE_DEFAULTS, ...user }, albedoLocations(true, ''));
    assert.deepEqual(added, { 'my-skills': true, '.albedo/skills': true, '~/.albedo/skills': true, '~/.prime/agent/skills': true });
  });

  it('keeps a location the person turned off, and changes nothing once everything is there', () => {
    const user = { '.albedo/skills': false };
    assert.deepEqual(withAlbedoLocations(user, { ...VSCODE_DEFAULTS, ...user }, ['.albedo/skills', '.agents/skills']), undefined);
    const full = { '.albedo/skills': true, '~/.albedo/skills': true, '~/.prime/agent/skills': true };
    assert.equal(withAlbedoLocations(full, { ...VSCODE_DEFAULTS, ...full }, albedoLocations(true, '')), undefined);
  });
});

describe('withoutAlbedoLocations', () => {
  it("removes what it added, never VS Code's defaults nor the person's other entries", () => {
    const user = { 'my-skills': true, '.albedo/skills': true, '~/.albedo/skills': true, '~/.prime/agent/skills': true, '.agents/skills': true };
    assert.deepEqual(withoutAlbedoLocations(user, VSCODE_DEFAULTS, albedoLocations(true, '')), { 'my-skills': true, '.agents/skills': true });
    assert.equal(withoutAlbedoLocations({ 'my-skills': true }, VSCODE_DEFAULTS, albedoLocations(true, '')), undefined);
    assert.equal(withoutAlbedoLocations({ '.albedo/skills': false }, VSCODE_DEFAULTS, albedoLocations(true, '')), undefined);
  });
});

describe('the server', () => {
  it('is never sent copilotSkillLocations (it would report it as unknown)', () => {
    assert.deepEqual(withoutLaunchSettings({ enable: true, copilotSkillLocations: true, server: { path: ['x'] } }), { enable: true });
  });
});
