"""Long work between frames: ``app.App.work``, a generator that the frame loop steps a
piece a frame (a saved game replayed when its mode comes back). Meanwhile the picture
fades and keys wait, then come in the order they were pressed."""

from microrobots.handheld import Device
from microrobots.app import App
from microrobots.device.hw.fake import Hardware as FakeHardware
from microrobots.device.input import A, DOWN, RIGHT


def device(tmp_path):
    return Device(FakeHardware, config_path=str(tmp_path / "none.json"),
                  root=str(tmp_path) + "/")


def test_work_runs_a_piece_a_frame_fading_and_keys_come_after_in_order(tmp_path):
    d = device(tmp_path)
    d.run(5)
    app = d.app
    app.go("settings", d.now)
    d.run(5)
    assert app.mode == "settings" and not app.switching
    d.run(3)
    pieces = []
    shown = []

    def work():
        for k in range(3):
            pieces.append(d.hw.now)
            yield
            shown.append(sum(d.frame))
            d.hw.pressed = [1 << RIGHT, 1 << DOWN, 0][k]

    app.work = work()
    d.run(8)
    assert len(pieces) == 3 and len(set(pieces)) == 3  # one piece a frame
    assert shown == sorted(shown, reverse=True) and shown[0] > shown[-1]  # fading
    # RIGHT then DOWN were pressed during the work: both handled after it, in order
    # (RIGHT changes the first item's value, the side; DOWN then moves to item 2)
    assert app.work is None
    assert app.settings["side"] == "copper" and app.current.item == 1


def test_keys_wait_behind_keys_already_waiting():
    app = App(None, seed=1)
    app.work = iter(())
    app.handle(RIGHT | 1 << 3, 0)
    app.work = None
    app.handle(A | 3 << 3, 0)  # while one waits, a new key queues behind it
    assert list(app._held[:app._held_n]) == [RIGHT | 1 << 3, A | 3 << 3]
