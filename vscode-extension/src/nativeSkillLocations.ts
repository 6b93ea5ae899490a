/**
 * The optional `albedoSkills.copilotSkillLocations` (off by default): add Albedo's skill roots to VS Code's
 * own agent skill folders, `chat.agentSkillsLocations` (VS Code 1.139 reads it for Copilot's skills and its
 * chat `/` menu, and marks it deprecated: "will be removed in a future release"). Decided here without
 * VS Code (node --test runs this module directly; it must not import `vscode`); nativeSkillSupport.ts writes.
 *
 * VS Code 1.139.1's setting is an object of paths to `true`/`false`; a path must be relative to a workspace
 * folder or start with `~/` (absolute paths are refused), and its defaults already hold `.agents/skills` and
 * `~/.agents/skills` (read in its workbench.js, `chat.agentSkillsLocations`).
 */
import * as path from 'node:path';
import { pathKey } from './catalogTree';
import { USER_ROOTS, WORKSPACE_ROOTS } from './declared';

/** The extension's own setting (never sent to the server: settings.ts). */
export const COPILOT_LOCATIONS_SETTING = 'copilotSkillLocations';
/** VS Code's setting, by section and key. */
export const VSCODE_LOCATIONS_SECTION = 'chat';
export const VSCODE_LOCATIONS_KEY = 'agentSkillsLocations';

/** Albedo's roots (docs/editors.md, catalogTree.ts `skillRoots`) as VS Code's setting writes them. */
export const WORKSPACE_LOCATIONS: readonly string[] = WORKSPACE_ROOTS;
export const USER_LOCATIONS: readonly string[] = USER_ROOTS.map((relative) => `~/${relative}`);

export type Locations = Readonly<Record<string, boolean>>;

/**
 * The locations Albedo reads that VS Code should read too: the workspace roots, and the user roots when
 * `albedoSkills.userRoots` is on and they are under the home VS Code's `~/` means (`albedoSkills.home` empty;
 * another home cannot be written there, since absolute paths are refused).
 */
export function albedoLocations(userRoots: boolean, home: string): string[] {
  return [...WORKSPACE_LOCATIONS, ...(userRoots && home.trim() === '' ? USER_LOCATIONS : [])];
}

/**
 * The user-level value with `wanted` added, or undefined when nothing changes. `effective` is what VS Code
 * reads (its defaults merged in): a location already on is not written again, and one the person turned
 * off (`false` at any level) stays off.
 */
export function withAlbedoLocations(user: Locations | undefined, effective: Locations | undefined, wanted: readonly string[]): Record<string, boolean> | undefined {
  const missing = wanted.filter((location) => effective?.[location] === undefined && user?.[location] === undefined);
  return missing.length === 0 ? undefined : { ...user, ...Object.fromEntries(missing.map((location) => [location, true])) };
}

/**
 * The user-level value without what the setting added (when it is turned off), or undefined when nothing
 * changes: the locations VS Code does not have by default (`defaults`), where the user value says `true`.
 */
export function withoutAlbedoLocations(user: Locations | undefined, defaults: Locations | undefined, added: readonly string[]): Record<string, boolean> | undefined {
  const gone = added.filter((location) => user?.[location] === true && defaults?.[location] === undefined);
  return gone.length === 0 ? undefined : Object.fromEntries(Object.entries(user ?? {}).filter(([location]) => !gone.includes(location)));
}

/** VS Code's switch for its own agent skills (default on in 1.139). */
export const VSCODE_USE_SKILLS_KEY = 'useAgentSkills';

/**
 * Whether VS Code's own agent skills read the root `skillFile` sits in (so its chat `/` menu lists the skill
 * itself): an enabled entry of `chat.agentSkillsLocations`, relative to a workspace folder or under `~/`.
 * `locations` undefined: this VS Code has no such setting (1.96), so it lists none.
 */
export function listedByVsCode(
  skillFile: string,
  locations: Locations | undefined,
  useAgentSkills: boolean,
  place: { workspaceFolders: readonly string[]; home?: string; platform?: NodeJS.Platform },
): boolean {
  if (!useAgentSkills || locations === undefined) {
    return false;
  }
  const paths = (place.platform ?? process.platform) === 'win32' ? path.win32 : path.posix;
  const root = pathKey(paths.dirname(paths.dirname(skillFile)), place);
  return Object.entries(locations).some(([location, on]) => {
    if (on !== true) {
      return false;
    }
    const candidates = location.startsWith('~/')
      ? place.home !== undefined
        ? [paths.join(place.home, location.slice(2))]
        : []
      : paths.isAbsolute(location)
        ? []
        : place.workspaceFolders.map((folder) => paths.join(folder, location));
    return candidates.some((candidate) => pathKey(candidate, place) === root);
  });
}
