"""Process rows: whole `albedo-skills check` runs beside skills-ref and agnix (installed into their own
virtualenv on first use), CPU, and what the command line imports at start."""

from __future__ import annotations

import json
import os
import resource
import shlex
import shutil
import subprocess
import tempfile
import time
from typing import NamedTuple

import generate
from common import ALBEDO_CHECK, PYTHON, REPO, WORK, child_env, log
from report import Row, paired_ratios, ratio_row

# The start-up and scaling goals (docs/performance.md): a pre-commit hook or an editor checks one skill at a
# time, so the whole process on one skill is held to the bare interpreter and to agnix; a CI over a
# collection holds the per-skill cost from 128 to 1,000 skills (linear, not worse).
ONE_SKILL_PASS_GOAL = 2.0  # `check` on 1 skill / `python -c pass`
ONE_SKILL_AGNIX_GOAL = 1.5  # `check` on 1 skill / agnix on the same skill
LINEAR_PER_SKILL_GOAL = 1.25  # per-skill cost at 1,000 skills / per-skill cost at 128
# The 128-skill tree against the other validators: wall time against agnix is the start-up issue's goal (the
# first round's was 0.5×, before the security reading joined every `check`); the others are the first round's
MANY_SKILLS_AGNIX_GOAL = 0.6  # `check` / agnix, wall
MANY_SKILLS_AGNIX_CPU_GOAL = 0.5  # `check` / agnix, CPU
MANY_SKILLS_API_GOAL = 0.25  # `check` / skills-ref's Python API, wall and CPU
THOUSAND_RUNS = 6  # runs of each command on the 1,000-skill tree (agnix takes seconds there)

TOOLS_VENV = os.path.join(WORK, "venv-tools")
TOOLS_PINS = ("skills-ref==0.1.1", "agnix==0.59.3")  # the versions the README's figures were taken with


def tools_bin(name: str) -> str:
    return os.path.join(TOOLS_VENV, "bin", name)


OURS_VENV = os.path.join(WORK, "venv-ours")


def ensure_installed_ours() -> str | None:
    """A regular (non-editable) install of this checkout in benchmarks/.work/venv-ours, as `pip install .`
    or pipx gives users: an editable install adds an import hook (and pathlib) to every start. Reinstalled
    on every run so it measures the code as it is now. None when ready, else why not."""
    python = os.path.join(OURS_VENV, "bin", "python")
    try:
        if not os.path.exists(python):
            log(f"installing this checkout into {OURS_VENV}")
            subprocess.run([PYTHON, "-m", "venv", OURS_VENV], check=True, capture_output=True)
            subprocess.run([python, "-m", "pip", "install", "-q", REPO], check=True, capture_output=True, text=True)
        else:
            subprocess.run(
                [python, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", REPO],
                check=True, capture_output=True, text=True,
            )
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"could not install this checkout: {getattr(exc, 'stderr', '') or exc}"
    return None


def ensure_tools() -> str | None:
    """Create benchmarks/.work/venv-tools with skills-ref and agnix; None when ready, else why not."""
    if os.path.exists(tools_bin("agentskills")) and os.path.exists(tools_bin("agnix")):
        return None
    log(f"installing {' '.join(TOOLS_PINS)} into {TOOLS_VENV}")
    try:
        if not os.path.exists(tools_bin("python")):
            subprocess.run([PYTHON, "-m", "venv", TOOLS_VENV], check=True, capture_output=True)
        subprocess.run(
            [tools_bin("python"), "-m", "pip", "install", "-q", *TOOLS_PINS], check=True, capture_output=True, text=True
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"could not install the other tools: {getattr(exc, 'stderr', '') or exc}"
    return None


def _hyperfine_once(
    hyperfine: str, argv: list[str], runs: int, warmup: int, env: dict[str, str]
) -> tuple[list[float], list[float]]:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        export = handle.name
    try:
        subprocess.run(
            [hyperfine, "-N", "-i", "--style", "none", "--warmup", str(warmup), "--runs", str(runs),
             "--export-json", export, shlex.join(argv)],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        )
        with open(export, encoding="utf-8") as handle:
            result = json.load(handle)["results"][0]
        # hyperfine gives CPU time as a mean only: one figure per run, the same for each
        cpu = (result["user"] + result["system"]) * 1000
        return [t * 1000 for t in result["times"]], [cpu] * len(result["times"])
    finally:
        os.unlink(export)


def _children_cpu_ms() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _loop_once(argv: list[str], runs: int, warmup: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system, from the children's rusage) ms of each run."""
    for _ in range(warmup):
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    samples, cpu = [], []
    for _ in range(runs):
        cpu_before = _children_cpu_ms()
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append(_children_cpu_ms() - cpu_before)
    return samples, cpu


def measure_processes(
    commands: dict[str, tuple[list[str], dict[str, str]]], runs: int, warmup: int, rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall-clock ms of whole processes: `hyperfine -N` (no shell) when installed, else a perf_counter loop
    around subprocess.run. The commands take turns in `rounds` rounds of runs/rounds each, so a load that
    comes and goes on the machine falls on all of them alike; warm-ups run in the first round only.
    Returns the wall-clock samples and the CPU-time (user + system) samples."""
    hyperfine = shutil.which("hyperfine")
    samples: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    per_round = max(1, runs // rounds)
    for index in range(rounds):
        for name, (argv, env) in commands.items():
            first = warmup if index == 0 else 0
            if hyperfine:
                wall, used = _hyperfine_once(hyperfine, argv, per_round, first, env)
            else:
                wall, used = _loop_once(argv, per_round, first, env)
            samples[name] += wall
            cpu[name] += used
    return samples, cpu


def measure_loop(argvs: list[list[str]], runs: int, env: dict[str, str]) -> list[float]:
    """Wall-clock ms of running every command of `argvs` one after another (a CI loop), `runs` times."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for argv in argvs:
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def import_profile(argv: list[str], top: int = 10) -> tuple[list[tuple[int, str]], set[str]]:
    """`python -X importtime` of a command: the costliest imports (cumulative µs, once per name) and all
    modules imported."""
    done = subprocess.run([PYTHON, "-X", "importtime", *argv], capture_output=True, text=True, env=child_env())
    best: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self, cumulative, name = (part for part in line[len("import time:"):].split("|"))
        name = name.strip()
        best[name] = max(best.get(name, 0), int(cumulative))
    costs = sorted(((micros, name) for name, micros in best.items()), reverse=True)
    return costs[:top], set(best)


def scale_rows(timings: dict[str, list[float]], ours128: Row) -> list[Row]:
    """`check` on 1 skill against the bare interpreter and agnix, and on 1,000 skills against the per-skill
    cost at 128: rows only for what was measured (`ours-one`, `agnix-one`, `ours-thousand`, `agnix-thousand`)."""
    group = "process"
    rows: list[Row] = []
    if "ours-one" not in timings:
        return rows
    one = Row(group, "`albedo-skills check` on 1 skill (regular install when there is one)", timings["ours-one"])
    if "pass-installed" in timings:
        bare = Row(group, "`python -c pass`, the regular install's interpreter", timings["pass-installed"])
    else:
        bare = Row(group, "`python -c pass`", timings["pass"])
    rows.append(bare)
    rows += [one, ratio_row(group, "`check` on 1 skill / `python -c pass`, wall", one, bare, ONE_SKILL_PASS_GOAL,
                            note=paired_ratios(one, bare))]
    floor = Row(group, "`python -c 'import re'`, the regular install's interpreter (a floor; context)",
                timings["re-installed"]) if "re-installed" in timings else None
    if floor is not None:
        rows += [floor, ratio_row(group, "`import re` alone / `python -c pass`, wall (the floor's share of the goal)",
                                  floor, bare, None, note=paired_ratios(floor, bare))]
    if "agnix-one" in timings:
        agnix_one = Row(group, "`agnix` on 1 skill", timings["agnix-one"])
        rows += [agnix_one, ratio_row(group, "`check` on 1 skill / agnix, wall", one, agnix_one, ONE_SKILL_AGNIX_GOAL,
                                      note=paired_ratios(one, agnix_one))]
        if floor is not None:
            rows.append(ratio_row(group, "`import re` alone / agnix on 1 skill, wall (the floor; context)", floor,
                                  agnix_one, None, note=paired_ratios(floor, agnix_one)))
    if "ours-thousand" in timings:
        thousand = Row(group, "`albedo-skills check` on 1,000 skills", timings["ours-thousand"])
        rows.append(thousand)
        if "agnix-thousand" in timings:
            agnix_thousand = Row(group, "`agnix` on 1,000 skills", timings["agnix-thousand"])
            rows += [agnix_thousand, ratio_row(group, "`check` / agnix on 1,000 skills, wall", thousand, agnix_thousand, None)]
        # the cost a skill adds, start-up taken out: linear when the 1,000-skill figure is no dearer per skill
        if None not in (one.median, ours128.median, thousand.median):
            per_128 = (ours128.median - one.median) / 127
            per_1000 = (thousand.median - one.median) / 999
            ratio = per_1000 / per_128 if per_128 > 0 else float("inf")
            rows.append(Row(group, "per-skill cost at 1,000 skills / at 128 (start-up taken out)", value=f"{ratio:.2f}×",
                            goal=f"≤ {LINEAR_PER_SKILL_GOAL:g}×", met=ratio <= LINEAR_PER_SKILL_GOAL,
                            note=f"{per_128:.2f} ms a skill at 128, {per_1000:.2f} ms at 1,000"))
    return rows


class ProcessResults(NamedTuple):
    rows: list[Row]
    commands: list[str]  # each measured command, for the report
    tools_problem: str | None  # why the other tools were not measured (None when they were)
    slowest_imports: list[tuple[int, str]]  # of `albedo-skills check`: (cumulative µs, module)


def process_rows(
    tree: generate.Tree, quick: bool, no_tools: bool, one: generate.Tree | None = None,
    thousand: generate.Tree | None = None,
) -> ProcessResults:
    """The process group of the table, on the 128-skill tree; with `one` and `thousand` (trees of 1 and
    1,000 skills) also the start-up and scaling rows."""
    rows: list[Row] = []
    log("whole processes")
    group = "process"
    proc_runs, proc_warmup, rounds = (6, 1, 2) if quick else (30, 3, 5)
    skill_dirs = [os.path.dirname(path) for path in tree.workspace_skills + tree.home_skills]
    env = child_env()
    ours_argv = [ALBEDO_CHECK, "check", tree.workspace, "--home", tree.home]
    commands: list[str] = [f"ours: `{shlex.join(ours_argv)}`"]
    measured: dict[str, tuple[list[str], dict[str, str]]] = {
        "pass": ([PYTHON, "-c", "pass"], env),
        "ours": (ours_argv, env),
        "ours-nopyc": (ours_argv, child_env(bytecode=False)),
    }
    installed_problem = ensure_installed_ours()
    if installed_problem is None:
        installed_argv = [os.path.join(OURS_VENV, "bin", "albedo-skills"), *ours_argv[1:]]
        measured["installed"] = (installed_argv, env)
        # the one-skill goal's baseline: the very interpreter the regular install starts, with its own site
        # (the benchmark's interpreter sits in the development virtualenv, whose editable install and test
        # packages add .pth files that make its bare start two to three times slower)
        measured["pass-installed"] = ([os.path.join(OURS_VENV, "bin", "python"), "-c", "pass"], env)
        # the floor of any Python program that reads with a regular expression: `re` (with `enum`), nothing else
        measured["re-installed"] = ([os.path.join(OURS_VENV, "bin", "python"), "-c", "import re"], env)
        commands.append(f"ours, installed: `{shlex.join(installed_argv)}`")
    else:
        log(installed_problem)
    tools_problem = None if not no_tools else "skipped (--no-tools)"
    if tools_problem is None:
        tools_problem = ensure_tools()
    code = ("import sys\nfrom pathlib import Path\nfrom skills_ref import validate\n"
            "problems = [validate(Path(d)) for d in sys.argv[1:]]\nsys.exit(1 if any(problems) else 0)")
    if tools_problem is None:
        agnix_argv = [tools_bin("agnix"), tree.workspace, tree.home]
        measured["agnix"] = (agnix_argv, env)
        measured["api"] = ([tools_bin("python"), "-c", code, *skill_dirs], env)
        commands += [
            f"agnix: `{shlex.join(agnix_argv)}`",
            f"skills-ref API: `{shlex.join([tools_bin('python'), '-c', code.replace(chr(10), '; ')])} DIR1 … DIR128`",
            f"skills-ref CLI: `for d in DIR1 … DIR128; do {tools_bin('agentskills')} validate \"$d\"; done`",
        ]
    users_argv = measured.get("installed", measured["ours"])[0]  # what users run: a regular install if there is one
    scaled_runs: dict[str, tuple[list[str], dict[str, str]]] = {}
    for label, scaled, into in (("one", one, measured), ("thousand", thousand, scaled_runs)):
        if scaled is not None:
            into[f"ours-{label}"] = ([*users_argv[:2], scaled.workspace, "--home", scaled.home], env)
            if tools_problem is None:
                into[f"agnix-{label}"] = ([tools_bin("agnix"), scaled.workspace, scaled.home], env)
    timings, cpu_times = measure_processes(measured, proc_runs, proc_warmup, rounds)
    if scaled_runs:  # agnix takes seconds on 1,000 skills: fewer runs, still in alternating rounds
        thousand_runs = (2, 0, 2) if quick else (THOUSAND_RUNS, 1, THOUSAND_RUNS)
        timings.update(measure_processes(scaled_runs, *thousand_runs)[0])
    editable = Row(group, "`albedo-skills check WS --home HOME` (128 skills), editable install", timings["ours"])
    ours = editable
    rows += [
        Row(group, "`python -c pass` (same interpreter; context)", timings["pass"]),
        editable,
        Row(group, "`albedo-skills check`, no bytecode cache (PYTHONDONTWRITEBYTECODE=1; context)", timings["ours-nopyc"],
            note="editable install: the project's modules compile at every start"),
    ]
    if "installed" in timings:
        # the ratios compare what users run: a regular install, with no editable import hook
        ours = Row(group, "`albedo-skills check WS --home HOME` (128 skills), regular install (`pip install .`)",
                   timings["installed"])
        rows.append(ours)
    if tools_problem is None:
        agnix = Row(group, "`agnix WS HOME` (128 skills)", timings["agnix"])
        api = Row(group, "skills-ref API: `python -c` import + `validate()` × 128", timings["api"])
        loop_runs = 1 if quick else 3
        cli_argvs = [[tools_bin("agentskills"), "validate", folder] for folder in skill_dirs]
        log(f"skills-ref CLI: 128 processes × {loop_runs}")
        cli = Row(group, "skills-ref CLI: `agentskills validate DIR`, 128 processes in a loop",
                  measure_loop(cli_argvs, loop_runs, env), note="it takes one SKILL_PATH per invocation")
        rows += [agnix, api, cli]
        rows.append(ratio_row(group, "`albedo-skills check` / agnix, wall", ours, agnix, MANY_SKILLS_AGNIX_GOAL))
        api_ratio = ratio_row(group, "`albedo-skills check` / skills-ref API, wall", ours, api, MANY_SKILLS_API_GOAL)
        if api.median:
            api_ratio.note = f"goal ≈ {MANY_SKILLS_API_GOAL * api.median:.0f} ms here"
        rows.append(api_ratio)
        ours_key = "installed" if "installed" in cpu_times else "ours"
        cpu_rows = {key: Row(group, f"CPU (user + system) of {label}", cpu_times[key])
                    for key, label in ((ours_key, "`albedo-skills check`"), ("agnix", "agnix"), ("api", "the skills-ref API run"))}
        rows += list(cpu_rows.values())
        rows.append(ratio_row(group, "`albedo-skills check` / agnix, CPU", cpu_rows[ours_key], cpu_rows["agnix"],
                              MANY_SKILLS_AGNIX_CPU_GOAL))
        rows.append(ratio_row(group, "`albedo-skills check` / skills-ref API, CPU", cpu_rows[ours_key], cpu_rows["api"],
                              MANY_SKILLS_API_GOAL))
        rows.append(ratio_row(group, "`albedo-skills check` / skills-ref CLI loop", ours, cli, None, note="context"))
    else:
        rows.append(Row(group, "agnix / skills-ref", value="n/a", note=tools_problem.splitlines()[-1][:120]))

    rows += scale_rows(timings, ours)

    # the command line must stay free of LSP imports
    top, modules = import_profile([ALBEDO_CHECK, "check", tree.workspace, "--home", tree.home])
    lsp_leak = sorted(name for name in modules if name.split(".")[0] in ("pygls", "lsprotocol", "cattrs", "attrs"))
    rows.append(Row("process", "`albedo-skills check` imports pygls/lsprotocol?", value="yes" if lsp_leak else "no",
                    goal="no", met=not lsp_leak, note=", ".join(lsp_leak[:5])))
    return ProcessResults(rows, commands, tools_problem, top)
