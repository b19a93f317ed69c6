"""The web page: the firmware in MicroPython's WebAssembly port (build.py bundles it,
page.py boots it inside the page, page.js is the board and the grid; browser.py drives it)."""
