# The frozen manifest of the Micro Robots image (MicroPython's manifest language).
# tools.picoimage copies it into the staging folder beside what it freezes (relative paths
# are the manifest's folder): the package (its device loop, microrobots.handheld, is what
# the image runs), the build's id, and the launcher as the image's main.py.
include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 - the port's own frozen modules
package("microrobots")  # noqa: F821
module("microrobots_image.py")  # noqa: F821
module("main.py")  # noqa: F821
