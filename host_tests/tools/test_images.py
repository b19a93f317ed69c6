"""make images: the README's pictures are reproducible from their event scripts."""

import os

import pytest

from tools.draw import images


def test_every_script_has_its_picture_and_every_picture_its_script():
    names = {name for name, _ in images.scripts()}
    pictures = {f[:-4] for f in os.listdir(images.IMAGES) if f.endswith(".png")}
    assert names == pictures
    assert {"menu", "solo", "classroom-wave"} <= names


def test_pictures_rebuild_byte_for_byte(tmp_path):
    made = images.build_all(str(tmp_path))
    assert len(made) == len(images.scripts())
    for png in made:
        name = os.path.basename(png)
        with open(os.path.join(images.IMAGES, name), "rb") as f:
            committed = f.read()
        with open(png, "rb") as f:
            assert f.read() == committed, "%s is stale: run make images" % name


def test_pictures_show_different_moments():
    data = set()
    for name, _ in images.scripts():
        with open(os.path.join(images.IMAGES, name + ".png"), "rb") as f:
            data.add(f.read())
    assert len(data) == len(images.scripts())


def test_a_script_without_its_image_line_is_refused(tmp_path):
    path = tmp_path / "x.events"
    path.write_text("500 a\n")
    with pytest.raises(images.ImageError, match="x.events: no '# image"):
        images.spec(str(path))


def test_check_reports_a_changed_picture(tmp_path):
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "menu.events").write_text("# image: seed=3 until=400\n")
    images.build_all(str(folder), str(folder))
    assert images.differences(str(folder)) == []
    (folder / "menu.png").write_bytes(b"not the picture")
    assert images.differences(str(folder)) == ["menu.png"]
