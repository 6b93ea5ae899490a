/** The launch input the bundle and message tests start from: Linux, a workspace, a home, the bundled server. */
import type { Bundle, LaunchInput } from '../launch';

export const bundle: Bundle = { launcher: '/ext/bundled/tool/launch.py', libs: '/ext/bundled/libs' };

export const input = (overrides: Partial<LaunchInput> = {}): LaunchInput => ({
  serverPath: [],
  pythonPath: '',
  platform: 'linux',
  env: { PATH: '/usr/bin' },
  workspaceFolder: '/work/project',
  home: '/home/ada',
  importStrategy: 'useBundled',
  bundle,
  ...overrides,
});
