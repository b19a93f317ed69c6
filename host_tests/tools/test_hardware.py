"""The hardware package agrees with the firmware: pin table, wiring diagram, config
defaults, parts list, and the enclosure's pitch with the tile films'."""

import ast
import csv
import math
import operator
import os
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET

import pytest

from microrobots.device import config
from tools.draw import overlay, wiring

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARDWARE = os.path.join(ROOT, "hardware")
README = os.path.join(HARDWARE, "README.md")
SVG = os.path.join(HARDWARE, "wiring.svg")
SCAD = os.path.join(HARDWARE, "enclosure.scad")
BOM = os.path.join(HARDWARE, "bom.csv")

# Spot checks from the Pico datasheet's pinout, independent of tools/draw/wiring.py's table.
DATASHEET = {"GP0": 1, "GP2": 4, "GP10": 14, "GP15": 20, "GP16": 21, "GP22": 29,
             "GP28": 34, "VBUS": 40, "VSYS": 39}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def table_rows(markdown):
    """Rows of the generated pin table: ``{config key or signal+pin: (pin, signal)}``."""
    block = markdown[markdown.index(wiring.TABLE_BEGIN):markdown.index(wiring.TABLE_END)]
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].isdigit():
            key = cells[4].strip("`")
            rows[key if key != "-" else "%s@%s" % (cells[1], cells[0])] = (int(cells[0]), cells[1])
    return rows


def expected_gpios(cfg):
    wanted = {"led_pin": cfg["led_pin"], "buzzer_pin": cfg["buzzer_pin"]}
    for name, gp in cfg["buttons"].items():
        wanted["buttons." + name] = gp
    return {k: v for k, v in wanted.items() if v is not None}


# -- the Pico's pinout --------------------------------------------------------------------

def test_pinout_matches_the_datasheet():
    for signal, pin in DATASHEET.items():
        assert wiring.PICO_PINS[pin] == signal
    assert sorted(wiring.PICO_PINS) == list(range(1, 41))
    assert len(wiring.GROUND_PINS) == 7 and wiring.PICO_PINS[33] == "AGND"
    gpios = sorted(int(n[2:]) for n in wiring.PICO_PINS.values() if n.startswith("GP"))
    assert gpios == list(range(23)) + [26, 27, 28]


# -- pin table ----------------------------------------------------------------------------

def test_readme_pin_table_is_the_generated_one():
    assert wiring.pin_table(config.defaults()) in read(README), "run: python -m tools.draw.wiring"


def test_pin_table_agrees_with_the_config_defaults():
    rows = table_rows(read(README))
    for key, gp in expected_gpios(config.defaults()).items():
        pin, signal = rows[key]
        assert signal == "GP%d" % gp, key
        assert wiring.PICO_PINS[pin] == signal, key
    assert rows["VBUS@40"] == (40, "VBUS")
    grounds = [v for k, v in rows.items() if k.startswith("GND@")]
    assert grounds and all(wiring.PICO_PINS[pin] == "GND" for pin, _ in grounds)
    pins = [pin for pin, _ in rows.values()]
    assert len(pins) == len(set(pins)), "a pin used twice"


def test_pin_table_follows_a_changed_config():
    # Not a copy of the defaults: change the config and the table changes with it.
    cfg = config.load('{"led_pin": 3, "buttons": {"a": 22}, "buzzer_pin": null}')
    rows = table_rows(wiring.pin_table(cfg))
    assert rows["led_pin"] == (5, "GP3")
    assert rows["buttons.a"] == (29, "GP22")
    assert "buzzer_pin" not in rows
    # a button on each edge gets a ground on each edge
    assert {pin <= 20 for key, (pin, _) in rows.items() if key.startswith("GND@")
            and pin != wiring.LED_GROUND_PIN} == {True, False}


def test_readme_prose_names_pins_correctly():
    for gp, pin in re.findall(r"\bGP(\d+) \(pin (\d+)\)", read(README)):
        assert wiring.PICO_PINS[int(pin)] == "GP" + gp


# -- wiring diagram -----------------------------------------------------------------------

def svg_texts(svg_text):
    root = ET.fromstring(svg_text.encode())
    texts = []
    for t in root.iter("{http://www.w3.org/2000/svg}text"):
        content = "".join(t.itertext()).strip()
        texts.append((content, float(t.get("x")), float(t.get("y"))))
    return texts


def pico_pin_labels(texts):
    """``{pin number: signal}`` read off the Pico's edges: a number and a signal name
    at the same height on the same side."""
    numbers = [t for t in texts if t[0].isdigit()]
    names = [t for t in texts if re.fullmatch(r"GP\d+|GND|VBUS", t[0])]
    found = {}
    for number, x, y in numbers:
        beside = [n for n in names if abs(n[2] - y) < 2]  # same height (SVG units: points)
        assert beside, "pin %s has no name beside it" % number
        found[int(number)] = min(beside, key=lambda n: abs(n[1] - x))[0]  # same edge
    return found


def test_committed_diagram_is_a_fresh_generation():
    assert read(SVG) == wiring.diagram_svg(config.defaults()), "run: python -m tools.draw.wiring"


def test_diagram_agrees_with_the_config_defaults():
    texts = svg_texts(read(SVG))
    words = {t[0] for t in texts}
    labels = pico_pin_labels(texts)
    for key, gp in expected_gpios(config.defaults()).items():
        pin = DATASHEET.get("GP%d" % gp) or wiring.GP_TO_PIN["GP%d" % gp]
        assert labels[pin] == "GP%d" % gp, key
    for name, gp in config.defaults()["buttons"].items():
        assert "%s (GP%d)" % (name, gp) in words
    assert "data GP%d" % config.defaults()["led_pin"] in words
    assert "piezo (GP%d)" % config.defaults()["buzzer_pin"] in words
    assert labels[40] == "VBUS"
    assert {"R1 330 ohm", "C1 10 uF", "DIN", "+5V"} <= words  # USB: 10 uF at attach
    # every pin in the pin table is drawn, with the same signal
    table = table_rows(read(README))
    assert {pin: signal for pin, signal in table.values()} == labels


def test_diagram_follows_a_changed_config():
    cfg = config.load('{"led_pin": 28, "buttons": {"up": 2, "a": 22}, "matrix": "panel8x8"}')
    texts = svg_texts(wiring.diagram_svg(cfg))
    labels = pico_pin_labels(texts)
    words = {t[0] for t in texts}
    assert labels[34] == "GP28" and labels[4] == "GP2" and labels[29] == "GP22"
    assert {"data GP28", "up (GP2)", "a (GP22)"} <= words
    assert any("8x8" in w for w in words)


def test_wiring_check_passes_on_the_committed_files():
    assert wiring.main(["--check"]) == 0


def test_wiring_check_notices_a_stale_diagram(tmp_path, capsys):
    stale = tmp_path / "wiring.svg"
    stale.write_text(read(SVG).replace("GP10", "GP9"))
    assert wiring.main(["--check", "--svg", str(stale)]) == 1
    assert "out of date" in capsys.readouterr().err


@pytest.mark.parametrize("content, words", [
    ('{"led_pin": 25}', "not on the Pico's header"),
    ('{"led_pin": 2, "buttons": {"up": 2}}', "already used"),
    ("{nope", "not valid JSON"),
])
def test_wiring_bad_config_is_one_line_exit_2(tmp_path, capsys, content, words):
    path = tmp_path / "config.json"
    path.write_text(content)
    out = tmp_path / "out.svg"
    assert wiring.main(["--config", str(path), "--svg", str(out), "--table"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not out.exists()


def test_wiring_missing_config_file_is_one_line(tmp_path, capsys):
    assert wiring.main(["--config", str(tmp_path / "none.json"), "--table"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# -- power budget -------------------------------------------------------------------------

def cap_for(leds):
    """The README's rule: (500 mA - leds x 1 mA) / 20 mA x 255, rounded down to 50."""
    return int((500 - leds) / 20 * 255) // 50 * 50


def test_power_budget_explains_the_firmware_cap():
    text = read(README)
    assert cap_for(config.defaults()["led_count"]) == config.defaults()["brightness_cap"]
    assert "= %d  (brightness_cap)" % config.defaults()["brightness_cap"] in text
    assert "= %d" % int((500 - 36) / 20 * 255) in text  # 5916
    # the cap keeps the LEDs within 500 mA, idle current included
    cap = config.defaults()["brightness_cap"]
    assert 36 + cap / 255 * 20 <= 500
    # the panel's cap: computed the same way, stated, and what the firmware applies
    assert cap_for(64) == config.power_budget(64) == 5550
    assert re.search(r"the cap is\s+%d;" % cap_for(64), text)
    assert config.load('{"matrix": "panel8x8"}')["brightness_cap"] == cap_for(64)


# -- parts list ---------------------------------------------------------------------------

def test_bom_has_the_required_parts():
    with open(BOM, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows and list(rows[0]) == ["part", "quantity", "example", "notes"]
    for row in rows:
        assert all(row[k].strip() for k in row), row

    def find(*words):
        hits = [r for r in rows if all(w.lower() in (r["part"] + " " + r["example"]).lower()
                                       for w in words)]
        assert hits, words
        return hits[0]

    assert find("Pico")["quantity"] == "1"
    assert find("WS2812B", "strip")["quantity"] == "36"
    assert find("8x8 panel")
    assert find("tactile")["quantity"] == "6"
    assert find("piezo")
    assert find("330 ohm")["quantity"] == "1"
    # issue 31: USB allows 10 uF at attach; the 1000 uF only behind the battery build's switch
    assert "usb" in find("10 uF")["notes"].lower()
    assert "battery build" in find("1000 uF")["part"].lower()
    assert "required" in find("74AHCT125")["notes"].lower()  # the data level in spec
    assert find("SN74LVC1T45")  # the battery build's, in spec from 3.0 to 5.5 V
    piezo = find("piezo")
    assert "ceramic" in piezo["example"].lower() and "220 ohm" in piezo["example"]
    assert "47 kohm" in find("47 kohm")["part"]  # the soft start's R5
    assert find("wire")
    assert find("USB cable")


# -- enclosure ----------------------------------------------------------------------------

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv}


def _arith(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_arith(node.left), _arith(node.right))
    raise ValueError("not plain arithmetic: %s" % ast.dump(node))


def scad_parameter(name):
    match = re.search(r"^%s\s*=\s*([^;]+);" % name, read(SCAD), re.M)
    assert match, name
    return _arith(ast.parse(match.group(1), mode="eval").body)


def test_enclosure_pitch_equals_the_overlay_default():
    assert scad_parameter("pitch") == pytest.approx(overlay.DEFAULT_PITCH_MM, abs=1e-9)
    assert scad_parameter("cells") == 6


def test_readme_states_the_pitch():
    assert "%.3f mm" % overlay.DEFAULT_PITCH_MM in read(README)


def stl_bounds(path):
    """(min xyz, max xyz) of an STL file, ASCII or binary."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:5] == b"solid" and b"facet" in data[:300]:
        pts = [tuple(map(float, m.groups())) for m in re.finditer(
            rb"vertex\s+(\S+)\s+(\S+)\s+(\S+)", data)]
    else:
        (count,) = struct.unpack_from("<I", data, 80)
        pts = []
        for i in range(count):
            v = struct.unpack_from("<12f", data, 84 + 50 * i)
            pts += [v[3:6], v[6:9], v[9:12]]
    assert pts, path
    return ([min(p[k] for p in pts) for k in range(3)], [max(p[k] for p in pts) for k in range(3)])


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Every part rendered to STL by openscad, in parallel (skip without openscad).

    Coarser circles ($fn=16) than a print's: the same geometry and checks, twice as fast."""
    binary = shutil.which("openscad")
    if not binary:
        pytest.skip("openscad is not installed (make system-deps installs it)")
    out = tmp_path_factory.mktemp("stl")
    procs = {}
    for part in ("grid", "lid", "base", "plug"):
        path = out / (part + ".stl")
        procs[part] = (path, subprocess.Popen(
            [binary, "-o", str(path), "-D", 'part="%s"' % part, "-D", "$fn=16", SCAD],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    results = {}
    for part, (path, proc) in procs.items():
        _, err = proc.communicate(timeout=300)
        results[part] = (proc.returncode, err, path)
    return results


def test_enclosure_renders_every_part_to_stl(rendered):
    for part, (code, err, path) in rendered.items():
        assert code == 0, "%s: %s" % (part, err[-500:])
        assert "WARNING" not in err and "ERROR" not in err, err
        assert path.stat().st_size > 1000, part


def test_rendered_grid_has_the_overlay_pitch(rendered):
    code, err, path = rendered["grid"]
    echoed = re.search(r"ECHO: pitch = ([\d.]+)", err)
    assert echoed and float(echoed.group(1)) == pytest.approx(overlay.DEFAULT_PITCH_MM, abs=1e-3)
    low, high = stl_bounds(path)
    size = 6 * overlay.DEFAULT_PITCH_MM + scad_parameter("divider")
    assert high[0] - low[0] == pytest.approx(size, abs=0.01)
    assert high[1] - low[1] == pytest.approx(size, abs=0.01)
    # the lid's window sits over the grid: the lid is wider than the grid on both sides
    lid_low, lid_high = stl_bounds(rendered["lid"][2])
    assert lid_low[0] < low[0] and lid_high[0] > high[0]
    assert math.isclose(lid_low[2], high[2], abs_tol=0.01)  # the lid rests on the grid


def test_enclosure_refuses_an_unknown_part(tmp_path):
    binary = shutil.which("openscad")
    if not binary:
        pytest.skip("openscad is not installed")
    proc = subprocess.run([binary, "-o", str(tmp_path / "x.stl"), "-D", 'part="lids"', SCAD],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "unknown part" in proc.stderr


def test_the_battery_build_has_a_bay_under_the_base_and_a_power_opening(tmp_path):
    """battery = [62, 51, 8] (a 2000 mAh pouch): a "bay" tray as large as the body under
    it, the cell's pocket inside; the base keeps its size. The USB-only build (the
    default) has no bay."""
    binary = shutil.which("openscad")
    if not binary:
        pytest.skip("openscad is not installed")
    assert re.search(r"^battery = \[0, 0, 0\];", read(SCAD), re.M)  # the documented build: USB only
    out = {}
    for part in ("bay", "base"):
        path = tmp_path / (part + ".stl")
        proc = subprocess.run([binary, "-o", str(path), "-D", 'part="%s"' % part, "-D", "$fn=16",
                               "-D", "battery=[62, 51, 8]", SCAD],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and "WARNING" not in proc.stderr, proc.stderr[-500:]
        out[part] = stl_bounds(path)
    (low, high), (base_low, base_high) = out["bay"], out["base"]
    assert high[2] == pytest.approx(0, abs=0.01) and low[2] == pytest.approx(-(1.6 + 8 + 0.4), abs=0.01)
    assert (high[0] - low[0], high[1] - low[1]) == pytest.approx(
        (base_high[0] - base_low[0], base_high[1] - base_low[1]), abs=0.01)
    proc = subprocess.run([binary, "-o", str(tmp_path / "x.stl"), "-D", 'part="bay"', SCAD],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "no bay" in proc.stderr


def test_the_battery_wiring_switches_the_leds_on_vsys_and_its_diagram_is_current():
    from tools.draw import wiring

    cfg = config.load_file(os.path.join(HARDWARE, "battery.json"))  # the build's config.json
    assert cfg["led_power_pin"] == 17
    rows = {r[3]: r for r in wiring.connections(cfg)}
    assert rows[22][:3] == ("LED supply switch", "led_power_pin", "GP17")
    assert rows[39][2] == "VSYS" and 40 not in rows  # the LEDs on VSYS, through Q1
    assert 40 in {r[3] for r in wiring.connections(config.defaults())}  # USB build: VBUS
    with open(os.path.join(HARDWARE, "wiring-battery.svg")) as f:
        assert f.read() == wiring.diagram_svg(cfg)
    text = read(os.path.join(HARDWARE, "README.md"))
    assert '{"led_power_pin": 17}' in text and "GP17" in text and "pin 22" in text


def test_the_soft_start_and_the_usb_budget_add_up():
    """The README's arithmetic: the inrush into C1 through the soft start (I = C dV/dt),
    and the LEDs' share of USB beside the charger, as battery.json caps it."""
    text = read(README)
    i_r5 = (4.2 - 1.8) / 47e3 - 1.8 / 100e3  # A into C5 on the Miller plateau
    dvdt = i_r5 / 100e-9
    assert "%d V/s" % round(dvdt, -1) in text and "%.2f A" % (1000e-6 * dvdt) in text
    assert 1000e-6 * dvdt < 3 / 5  # far under the cell protection's 3 A
    cfg = config.load_file(os.path.join(HARDWARE, "battery.json"))
    leds_ma = 500 - 215 - 25  # USB less the charger and the Pico
    assert cfg["brightness_cap"] == config.power_budget(36, leds_ma) == 2850
    assert "500 - 215 - 25 = %d mA" % leds_ma in text
    assert 36 + cfg["brightness_cap"] / 255 * 20 + 215 + 25 <= 500


def test_every_command_the_parts_list_names_exists():
    """The parts list's notes tell a builder what to run: each ``python -m tools...`` there
    must be a module that answers --help (bom.csv once named tools.overlay, which is not)."""
    import importlib.util
    import subprocess
    import sys

    with open(BOM, newline="", encoding="utf-8") as f:
        text = f.read()
    modules = re.findall(r"python -m (tools(?:\.\w+)+)", text)
    assert modules, "the parts list names no command"
    for module in modules:
        assert importlib.util.find_spec(module) is not None, module
        proc = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, (module, proc.stderr)
