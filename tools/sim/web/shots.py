"""make web-images: screenshots of the web page for the README, from scripted replays.

    python -m tools.sim.web.shots [--out docs/images/web]

Each picture is the page at ``?clock=manual&seed=N`` (plus its view) after replaying one
of the event scripts of docs/images/ up to its moment, so it shows what ``make images``
shows, in the page. Chromium draws text and curves with its own antialiasing, so the
files are reproducible in content, not byte for byte across browser versions.
"""

import os

from tools import cli
from tools.draw import images
from tools.sim.web import browser as web

SHOTS = (
    # name, events script, query, viewport
    ("page", "solo", "", (560, 990)),
    ("projector", "classroom-wave", "&view=big", (1280, 720)),
)


def take(out):
    made = []
    with web.session() as (browser, url):
        for name, script, query, viewport in SHOTS:
            path = os.path.join(images.IMAGES, script + ".events")
            seed, until = images.spec(path)
            events = cli.read_text(path, "events file")
            page, problems = web.open_page(browser, url, "?clock=manual&seed=%d%s" % (seed, query),
                                           viewport)
            page.evaluate("([text, until]) => { window.microrobots.replay(text, until); }",
                          [events, until])
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                          "requestAnimationFrame(r)))")  # the last frame painted
            if problems:
                raise RuntimeError("%s: %s" % (name, problems[0]))
            os.makedirs(out, exist_ok=True)
            target = os.path.join(out, name + ".png")
            page.screenshot(path=target)
            page.context.close()
            made.append(target)
    return made


def main(argv=None):
    p = cli.Parser(prog="python -m tools.sim.web.shots",
                   description="Screenshots of the web page for the README.")
    p.add_argument("--out", default=os.path.join(images.IMAGES, "web"),
                   help="folder (default docs/images/web)")
    try:
        args = p.parse_args(argv)
    except cli.UsageError as e:
        return cli.fail("web-images", e)
    why = web.missing()
    if why:
        return cli.fail("web-images", why)
    for path in take(args.out):
        print("wrote %s" % os.path.relpath(path))
    return 0


if __name__ == "__main__":
    cli.run(main)
