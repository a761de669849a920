/*
 * knob.h - a throw-away knob, the one entry test_knob builds the parameter
 * table with: --probe, a knob of shared alone. It is kept where --spins is
 * (a field the designs have), so that the table is all it adds.
 */
{ .flag = "--probe", .key = "probe", .label = " probe=", .kind = PARAM_INT,
    .flags = P_LIST | P_KEY, .owners = "shared", .lo = -1, .hi = 1000,
    .dflt = "-1", .off = CELL(knobs.spins), .metavar = "N[,..]",
    .help = "a throw-away knob of shared" },
