"""config.py: defaults, overrides, and one clear line for every kind of bad config."""

import json
import os

import config_mpy
import mpy
import pytest
from microrobots.device import config
from microrobots.device.config import ConfigError, load, load_file

# config_mpy.py (beside this file): the same loads inside MicroPython
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "config_mpy.py")

# The contract with the hardware docs (wiring diagram and pin table come from defaults()).
SPEC = {
    "led_pin": 2, "matrix": "strip", "led_count": 36, "order": "serpentine",
    "origin": "top-left", "rotation": 0, "window": [1, 1], "color_order": "GRB",
    "buttons": {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15},
    "buzzer_pin": 16, "brightness_cap": 5900,
    "battery_pin": 29, "usb_pin": 24, "led_power_pin": None, "battery_ma": 1000,
}


def test_defaults_are_the_documented_ones():
    assert config.defaults() == SPEC
    assert load("{}") == SPEC


def test_missing_file_gives_defaults(tmp_path):
    assert load_file(str(tmp_path / "config.json")) == SPEC


def test_file_overrides_key_by_key(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"led_pin": 0, "buttons": {"a": 20}, "buzzer_pin": null}')
    got = load_file(str(path))
    assert got["led_pin"] == 0 and got["buzzer_pin"] is None
    assert got["buttons"] == dict(SPEC["buttons"], a=20)
    assert got["matrix"] == "strip" and got["brightness_cap"] == 5900


def test_results_do_not_share_nested_defaults():
    first = load('{"buttons": {"a": 20}, "window": [0, 2], "matrix": "panel8x8"}')
    assert config.defaults()["buttons"]["a"] == 14 and config.defaults()["window"] == [1, 1]
    first["buttons"]["b"] = 3
    assert load("{}")["buttons"]["b"] == 15


def test_panel_takes_its_led_count_from_the_matrix():
    got = load('{"matrix": "panel8x8", "window": [2, 0], "rotation": 270, "origin": "bottom-right"}')
    assert got["led_count"] == 64 and got["window"] == [2, 0]
    assert load('{"matrix": "panel8x8", "led_count": 64}')["led_count"] == 64


@pytest.mark.parametrize("text, message", [
    ('{"led_pn": 3}', "config.json: unknown key 'led_pn' (did you mean 'led_pin'?)"),
    ('{"colour": 3}', "config.json: unknown key 'colour'"),
    ('{"led_pin": "GP2"}', 'config.json: led_pin: must be a whole number, not "GP2"'),
    ('{"led_pin": true}', "config.json: led_pin: must be a whole number, not true"),
    ('{"led_pin": 2.0}', "config.json: led_pin: must be a whole number, not 2.0"),
    ('{"led_pin": 30}', "config.json: led_pin: pin 30 is out of range 0-29"),
    ('{"buzzer_pin": 25}', "config.json: buzzer_pin: pin 25 is not on the Pico's header "
                           "(it is used for the on-board LED)"),
    ('{"buttons": {"left": -1}}', "config.json: buttons.left: pin -1 is out of range 0-29"),
    ('{"buttons": {"start": 3}}', "config.json: buttons: unknown button 'start' (known: up down left right a b)"),
    ('{"buttons": [1, 2]}', 'config.json: buttons: must be an object like {"a": 14}'),
    ('{"buttons": {"a": 2}}', "config.json: buttons.a: pin 2 is already used by led_pin"),
    ('{"buzzer_pin": 13}', "config.json: buzzer_pin: pin 13 is already used by buttons.right"),
    ('{"buttons": {"up": 11, "down": 10}}', None),
    ('{"buttons": {"up": 11}}', "config.json: buttons.down: pin 11 is already used by buttons.up"),
    ('{"matrix": "panel"}', 'config.json: matrix: must be one of strip, panel8x8, not "panel"'),
    ('{"led_count": 64}', "config.json: led_count: strip has 36 LEDs, not 64"),
    ('{"matrix": "panel8x8", "led_count": 36}', "config.json: led_count: panel8x8 has 64 LEDs, not 36"),
    ('{"order": "zigzag"}', 'config.json: order: must be one of serpentine, progressive, not "zigzag"'),
    ('{"origin": "top"}', ('config.json: origin: must be one of top-left, top-right, '
                           'bottom-left, bottom-right, not "top"')),
    ('{"rotation": 45}', "config.json: rotation: must be 0, 90, 180 or 270, not 45"),
    ('{"matrix": "panel8x8", "window": [3, 1]}',
     "config.json: window: [3, 1] puts the 6x6 grid outside the 8x8 panel (column and row must be 0-2)"),
    ('{"matrix": "panel8x8", "window": [0, -1]}',
     "config.json: window: [0, -1] puts the 6x6 grid outside the 8x8 panel (column and row must be 0-2)"),
    ('{"window": [1]}', "config.json: window: must be [column, row], not [1]"),
    ('{"color_order": "GRBW"}', ('config.json: color_order: must be the letters R, G, B in some '
                                'order, e.g. GRB, not "GRBW"')),
    ('{"color_order": "GGB"}', ('config.json: color_order: must be the letters R, G, B in some '
                                'order, e.g. GRB, not "GGB"')),
    ('{"brightness_cap": 0}', "config.json: brightness_cap: must be 1..65535, not 0"),
    ('{"battery_pin": 2}', "config.json: battery_pin: must be an ADC pin (26, 27, 28 or 29) or null, not 2"),
    ('{"battery_pin": "GP29"}', 'config.json: battery_pin: must be a whole number, not "GP29"'),
    ('{"usb_pin": 25}', "config.json: usb_pin: pin 25 is not on the Pico's header "
                        "(it is used for the on-board LED)"),
    ('{"led_power_pin": 14}', "config.json: led_power_pin: pin 14 is already used by buttons.a"),
    ('{"led_power_pin": 17, "buzzer_pin": 17}',
     "config.json: led_power_pin: pin 17 is already used by buzzer_pin"),
    ('{"led_power_pin": 29}', "config.json: led_power_pin: pin 29 is not on the Pico's header "
                              "(it is used for VSYS measurement)"),
    ('{"battery_pin": 26, "usb_pin": 26}', "config.json: usb_pin: pin 26 is already used by battery_pin"),
    ('{"battery_ma": 50}', "config.json: battery_ma: must be 100..5000 (mA), not 50"),
    ('{"battery_ma": 1.5}', "config.json: battery_ma: must be a whole number, not 1.5"),
    ('[1, 2]', 'config.json: must be a JSON object like {"led_pin": 2}'),
    ('{"led_pin": 2,\n "matrix": strip}', "config.json: not valid JSON at line 2 column 12: Expecting value"),
    ('', "config.json: not valid JSON at line 1 column 1: Expecting value"),
])
def test_bad_config_names_key_and_problem(text, message):
    if message is None:  # swapping two pins is fine
        assert load(text)["buttons"]["up"] == 11
        return
    with pytest.raises(ConfigError) as caught:
        load(text)
    assert str(caught.value) == message
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_power_pins_may_be_null_and_the_battery_budget_follows_the_cell():
    got = load('{"battery_pin": null, "usb_pin": null, "led_power_pin": 17, "battery_ma": 2000}')
    assert (got["battery_pin"], got["usb_pin"], got["led_power_pin"]) == (None, None, 17)
    assert load('{"battery_pin": 26, "usb_pin": 22}')["battery_pin"] == 26
    # a 1 A cell: (1000 - 36) / 20 * 255 = 12291 -> 12250, twice USB's 5900
    assert config.power_budget(36, 1000) == 12250 and config.power_budget(36, 500) == 5900
    assert config.power_budget(36, 30) == 0  # less than the LEDs' idle draw: no light


def test_file_errors_name_the_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"rotation": 91}')
    with pytest.raises(ConfigError, match=r"config\.json: rotation: must be"):
        load_file(str(path))


def test_strip_ignores_window_but_checks_its_shape():
    assert load('{"window": [5, 5]}')["window"] == [5, 5]  # unused by a strip
    with pytest.raises(ConfigError):
        load('{"window": "1,1"}')


CASES = ['{}', '{"led_pn": 3}', '{"matrix": "panel8x8", "window": [0, 2]}', '{"buttons": {"a": 2}}',
         '{"buzzer_pin": null, "color_order": "RGB"}', '{"rotation": 45}', '{"led_pin": 2.5}',
         '{"buttons": {"start": 1}}', '{"brightness_cap": 70000}', '{"matrix": "panel8x8", "window": [1, 3]}']


def test_micropython_gives_the_same_configs_and_messages():
    got = json.loads(mpy.run_file(SCRIPT, stdin=json.dumps(CASES)))
    assert got == config_mpy.outcomes(CASES)


def test_micropython_names_a_json_syntax_error_in_one_line():
    (message,) = json.loads(mpy.run_file(SCRIPT, stdin=json.dumps(['{"led_pin": 2,'])))
    assert message.startswith("config.json: not valid JSON")
    assert "\n" not in message


def test_power_budget_arithmetic_gives_the_default_caps():
    assert config.power_budget(36) == 5900 == config.defaults()["brightness_cap"]
    assert config.power_budget(64) == 5550
    # In milliamps: idle draw plus 20 mA per full channel stays within USB's 500 mA.
    for leds in (36, 64):
        cap = config.power_budget(leds)
        assert leds * 1 + cap * 20 / 255 <= 500 < leds * 1 + (cap + 50) * 20 / 255


def test_panel_defaults_to_its_own_power_budget_unless_told():
    assert load('{"matrix": "panel8x8"}')["brightness_cap"] == 5550
    assert load('{"matrix": "panel8x8", "brightness_cap": 4000}')["brightness_cap"] == 4000
    assert load('{"brightness_cap": 3000}')["brightness_cap"] == 3000
