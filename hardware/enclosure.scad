// Micro Robots handheld: a parametric enclosure (OpenSCAD 2021.01 or newer).
//
//   openscad -o grid.stl -D 'part="grid"' hardware/enclosure.scad
//
// Parts (print each on its own): "base" (tray: floor, walls, Pico and button-board posts,
// the USB opening), "grid" (36 light cells with dividers against bleeding; it sits on the
// LED strips and doubles as the jig for laying them), "lid" (window over the grid, a
// slide-in frame for the tile films and a clear cover, six button holes), "plug"
// (closes the film slot) and, for a battery build, "bay" (a tray screwed under the base
// that holds the LiPo cell; the base then gets a hole for its lead and an opening for the
// power button). "all" shows them pulled apart, "assembled" together, "section"
// assembled and cut through a column of cells.
//
// Coordinates: x to the right, y away from the player (row 0 of the grid is at the far
// end, as in the firmware), z up; millimetres.

// ---- parameters -----------------------------------------------------------------------

part = "all";             // "base", "grid", "lid", "plug"; views: "all", "assembled", "section"

// The LED grid. pitch MUST equal the tile films' pitch: tools/draw/overlay.py DEFAULT_PITCH_MM
// (host_tests/tools/test_hardware.py checks). 60 LEDs/m strip: 1000/60 = 16.667 mm.
// For an 8x8 panel measure its LED spacing and set pitch to it (and --pitch for the films).
pitch = 1000 / 60;
cells = 6;                // 6 x 6
divider = 1.2;            // wall between two cells
cell_depth = 10;          // LED to film: deeper = softer, more even light
strip_width = 12;         // the LED strip (10 mm strips fit the same notches)
strip_height = 2.4;       // strip with its LEDs: notch under the column dividers

// The tile films and their cover.
film = 0.5;               // paper or film stack
cover = 2;                // clear acrylic or PETG sheet on the films (0: none)
fit = 0.4;                // clearance for parts that slide or drop in
lip = 1.2;                // the lid's edge over the outer cells (covers the films' border)

// The box.
wall = 2.4;
floor_t = 2;              // floor thickness
lid_top = 1.6;            // the lid's top layer, above the film slot
side_margin = 10;         // body edge to grid, left, right and far end
controls = 62;            // depth of the button area in front of the grid
corner_r = 5;

// Buttons: 12 x 12 mm tactile switches with round caps, on two small perfboards.
button_hole = 12.8;       // for a 12 mm round cap
button_step = 15.24;      // D-pad: centre to each arrow (6 perfboard holes of 2.54 mm)
dpad_x = 0.25;            // D-pad centre, as a fraction of the body's width
ab_x = 0.78;              // between A and B
ab_dx = 7.62;             // A is up-right of B by (2*ab_dx, 2*ab_dy): on the 2.54 grid
ab_dy = 5.08;
button_proud = 1.5;       // cap top above the lid
button_height = 11;       // perfboard top to cap top (switch + cap)
perfboard = 1.6;

// The Raspberry Pi Pico (51 x 21 mm), flat on posts, USB end through the front wall.
pico_size = [21, 51];
pico_holes = [11.4, 47];  // hole spacing across, along
pico_standoff = 3;
usb_opening = [12, 8];    // width, height of the hole for the plug
screw_hole = 2.5;         // M3 self-tapping pilot in the base posts

// The battery option (hardware/README.md, "Running on a battery"). battery = [0, 0, 0] is
// the USB-only build: no bay, no openings. A 2000 mAh LiPo pouch is about 62 x 51 x 8 mm.
battery = [0, 0, 0];      // the cell: length (x), width (y), thickness, e.g. [62, 51, 8]
bay_floor = 1.6;          // the bay's floor; its walls are the body's
lead_hole = [10, 6];      // through the base's floor, past the Pico's far end, for the lead
power_opening = [7, 5];   // the power button (the LiPo SHIM's) or a slide switch: a hole in
power_offset = 17;        // the front wall, this far right of the USB opening's centre
screw_clear = 3.4;        // M3 through the lid
pilot_m2 = 1.8;           // M2 self-tapping (Pico, perfboards)

$fn = 36;

// ---- derived ----------------------------------------------------------------------------

grid_size = cells * pitch;
width = grid_size + 2 * side_margin;
length = side_margin + controls + grid_size + side_margin;
grid_origin = [side_margin, side_margin + controls];       // the grid's near-left corner
inner_h = cell_depth;                                       // base walls: floor to lid
slot_h = film + cover + fit;
lid_t = slot_h + lid_top;
pad_y = side_margin + controls / 2;                         // the buttons' row centre
dpad = [width * dpad_x, pad_y];
ab = [width * ab_x, pad_y];
board_z = floor_t + inner_h + lid_t + button_proud - button_height - perfboard;
pico_at = [width / 2 - pico_size[0] / 2, wall];             // USB end against the front wall

with_battery = battery[2] > 0;
bay_h = with_battery ? bay_floor + battery[2] + fit : 0;   // the bay's height, under the base
battery_at = [width / 2 - battery[0] / 2,                  // under the grid, centred
              grid_origin[1] + grid_size / 2 - battery[1] / 2];
lead_at = [width / 2 - lead_hole[0] / 2, pico_at[1] + pico_size[1] + 2];  // between Pico and grid

echo(pitch = pitch, grid_size = grid_size, body = [width, length, floor_t + inner_h + lid_t]);
echo(bay = bay_h, body_with_bay = floor_t + inner_h + lid_t + bay_h);
assert(!with_battery || (battery[0] + 2 * wall + 2 * fit <= width
                         && battery[1] + 2 * fit <= length - 2 * wall),
       "the battery does not fit under the body: a smaller cell, or a larger pitch");
assert(!with_battery || abs(power_offset) - power_opening[0] / 2 > usb_opening[0] / 2 + 1,
       "the power opening overlaps the USB opening: change power_offset");
assert(abs(grid_size - cells * pitch) < 1e-9);
assert(strip_width < pitch - divider, "the strip must fit between the row dividers");
assert(board_z > floor_t + 2, "buttons too short for this box: raise button_height");
for (p = board_posts())
    assert(p[0] + 3 < pico_at[0] || p[0] - 3 > pico_at[0] + pico_size[0]
           || p[1] - 3 > pico_at[1] + pico_size[1],
           str("a button-board post at ", p, " hits the Pico: move dpad_x or ab_x"));

function button_centres() = [
    dpad + [0, button_step], dpad - [0, button_step],       // up, down
    dpad - [button_step, 0], dpad + [button_step, 0],       // left, right
    ab + [ab_dx, ab_dy], ab - [ab_dx, ab_dy]];              // A, B
function screw_centres() = [
    [wall + 3.5, wall + 3.5], [width - wall - 3.5, wall + 3.5],
    [wall + 3.5, length - wall - 3.5], [width - wall - 3.5, length - wall - 3.5]];

// ---- parts ------------------------------------------------------------------------------

module outline(inset = 0) {
    offset(r = corner_r - inset) offset(delta = -corner_r)
        square([width, length]);
}

module base() {
    difference() {
        union() {
            linear_extrude(floor_t) outline();
            linear_extrude(floor_t + inner_h) difference() { outline(); outline(wall); }
            for (c = screw_centres()) translate(c) cylinder(d = 7, h = floor_t + inner_h);
            // a low frame on the floor locating the grid over the strips
            translate([grid_origin[0], grid_origin[1], floor_t]) linear_extrude(1)
                difference() {
                    translate([-divider / 2 - 1.6 - fit, -divider / 2 - 1.6 - fit])
                        square(grid_size + divider + 2 * (1.6 + fit));
                    translate([-divider / 2 - fit, -divider / 2 - fit])
                        square(grid_size + divider + 2 * fit);
                    // gaps where the strips' row jumpers and wires pass
                    for (r = [0 : cells - 1])
                        translate([-10, (r + 0.5) * pitch - strip_width / 2])
                            square([grid_size + 20, strip_width]);
                }
            for (p = pico_posts()) translate(p) cylinder(d = 5, h = floor_t + pico_standoff);
            for (p = board_posts()) translate(p) cylinder(d = 6, h = board_z);
        }
        for (c = screw_centres()) translate([c[0], c[1], floor_t]) cylinder(d = screw_hole, h = 99);
        for (p = pico_posts()) translate([p[0], p[1], 1]) cylinder(d = pilot_m2, h = 99);
        for (p = board_posts()) translate([p[0], p[1], floor_t]) cylinder(d = pilot_m2, h = 99);
        // the USB plug reaches the Pico through the front wall
        usb_z = floor_t + pico_standoff + 1 + 1.5;
        translate([width / 2 - usb_opening[0] / 2, -1, usb_z - usb_opening[1] / 2])
            cube([usb_opening[0], wall + 2, usb_opening[1]]);
        if (with_battery) {
            // the power button beside the USB socket; the cell's lead down into the bay
            translate([width / 2 + power_offset - power_opening[0] / 2, -1,
                       usb_z - power_opening[1] / 2])
                cube([power_opening[0], wall + 2, power_opening[1]]);
            translate([lead_at[0], lead_at[1], -1]) cube([lead_hole[0], lead_hole[1], floor_t + 2]);
        }
    }
}

module bay() {
    // a tray as large as the body, under it: the cell in a pocket under the grid, the
    // lead up through the base's hole; held by the four lid screws (longer: + bay_h)
    translate([0, 0, -bay_h]) difference() {
        linear_extrude(bay_h) outline();
        translate([battery_at[0] - fit, battery_at[1] - fit, bay_floor])
            cube([battery[0] + 2 * fit, battery[1] + 2 * fit, bay_h]);
        // the lead's channel from the cell's near edge to the hole in the base
        translate([lead_at[0], lead_at[1], bay_floor])
            cube([lead_hole[0], battery_at[1] - lead_at[1] + fit, bay_h]);
        for (c = screw_centres()) translate([c[0], c[1], -1]) cylinder(d = screw_clear, h = 99);
        for (c = screw_centres()) translate([c[0], c[1], -1]) cylinder(d = 6.5, h = 1 + 2.2);
    }
}

function pico_posts() = [
    for (i = [-1, 1], j = [0, 1])
        [width / 2 + i * pico_holes[0] / 2,
         pico_at[1] + (pico_size[1] - pico_holes[1]) / 2 + j * pico_holes[1]]];

// four posts around each button cluster, for its perfboard
function board_posts() = [
    for (i = [-1, 1], j = [-1, 1]) dpad + [i, j] * button_step,  // between the arrows
    for (i = [-1, 1], j = [-1, 1]) ab + [i * (ab_dx + 10), j * (ab_dy + 10)]];

module grid() {
    // square cells at the pitch; each column divider is notched where the strips run
    translate([grid_origin[0], grid_origin[1], floor_t]) difference() {
        union() {
            for (i = [0 : cells])
                translate([i * pitch - divider / 2, -divider / 2, 0])
                    cube([divider, grid_size + divider, cell_depth]);
            for (j = [0 : cells])
                translate([-divider / 2, j * pitch - divider / 2, 0])
                    cube([grid_size + divider, divider, cell_depth]);
        }
        for (j = [0 : cells - 1])
            translate([-divider - 1, (j + 0.5) * pitch - (strip_width + fit) / 2, -1])
                cube([grid_size + 2 * divider + 2, strip_width + fit, strip_height + 1]);
    }
}

module lid() {
    z0 = floor_t + inner_h;
    translate([0, 0, z0]) difference() {
        linear_extrude(lid_t) outline();
        // the window over the cells, a lip narrower than the grid on every side
        translate([grid_origin[0] + lip, grid_origin[1] + lip, -1])
            cube([grid_size - 2 * lip, grid_size - 2 * lip, lid_t + 2]);
        // the film slot: as large as the grid (plus fit), open at the far edge so films and
        // cover slide in from there; the plug closes it
        translate([grid_origin[0] - fit / 2, grid_origin[1] - fit / 2, -1])
            cube([grid_size + fit, length, slot_h + 1]);
        for (c = button_centres()) translate([c[0], c[1], -1]) cylinder(d = button_hole, h = 99);
        for (c = screw_centres()) translate([c[0], c[1], -1]) cylinder(d = screw_clear, h = 99);
        // a finger notch to pull the cover out
        translate([width / 2, length, lid_t]) scale([1, 0.6, 0.35]) sphere(d = 16);
    }
}

module plug() {
    // fills the slot between the grid's far edge and the body's far edge
    depth = length - (grid_origin[1] + grid_size + fit / 2);
    translate([grid_origin[0] - fit / 2 + fit / 2, grid_origin[1] + grid_size + fit / 2,
               floor_t + inner_h])
        cube([grid_size, depth, slot_h - fit / 2]);
}

if (part == "base") base();
else if (part == "grid") grid();
else if (part == "lid") lid();
else if (part == "plug") plug();
else if (part == "bay") { assert(with_battery, "no bay: battery is [0, 0, 0]"); bay(); }
else if (part == "assembled") assembled();
else if (part == "section")  // cut through a column of cells: check heights and fits
    difference() { assembled(); translate([-1, -1, -1]) cube([grid_origin[0] + 2.5 * pitch, 999, 99]); }
else if (part == "all") {
    color("dimgray") base();
    color("black") translate([0, 0, 0]) grid();
    color("white", 0.9) translate([0, 0, 25]) lid();
    color("orange") translate([0, 0, 45]) plug();
    if (with_battery) color("slategray") translate([0, 0, -20]) bay();
}
else assert(false, str("unknown part \"", part,
                       "\": use base, grid, lid, plug, bay, all, assembled or section"));

module assembled() {
    color("dimgray") base();
    color("black") grid();
    color("white") lid();
    color("orange") plug();
    if (with_battery) color("slategray") bay();
}
