// Runs a Python script for the build with $ALBEDO_PYTHON, else the platform's usual name for Python 3
// (`py -3` on Windows, where `python3` may be missing or the Microsoft Store's alias; `python3` elsewhere), so
// `npm run package` works the same from sh and from cmd.exe.
import { spawnSync } from 'node:child_process';

const [command, ...prefix] = process.env.ALBEDO_PYTHON
  ? [process.env.ALBEDO_PYTHON]
  : process.platform === 'win32'
    ? ['py', '-3']
    : ['python3'];
const result = spawnSync(command, [...prefix, ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.error) {
  console.error(`${[command, ...prefix].join(' ')}: ${result.error.message}. Set ALBEDO_PYTHON to a Python 3.11 or newer.`);
  process.exit(2);
}
process.exit(result.status ?? 1);
