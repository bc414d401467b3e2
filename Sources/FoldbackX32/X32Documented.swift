// The documented X32 / X-Air address tree as patterns: each leaf's OSC type and a plausible default. Non-realtime.
// SPDX-License-Identifier: GPL-3.0-or-later
import FoldbackControl

/// The leaves of the consoles' documented address trees (after the unofficial X32/M32 OSC protocol document and
/// Behringer's X AIR OSC document): every address a client may read during its sync, with its type (`i`, `f` or `s`)
/// and a plausible value. Patterns name their indexes: `{ch}` the channels (`01…32`), `{bus}` the buses as the
/// dialect numbers them, `{mix}` the send numbers (`01…16`), `{dca}`, `{mg}`, `{main}` (`main/st` or `lr`), `{linkN}`
/// (stereo pairs `1-2`…) and
/// literal ranges `{first-last:digits}`.
enum X32Documented {
    /// One pattern: its address, its default value (whose type is the leaf's type).
    typealias Leaf = (pattern: String, value: OSCArgument)

    private static let i0 = OSCArgument.int(0), i1 = OSCArgument.int(1), half = OSCArgument.float(0.5)
    private static let zero = OSCArgument.float(0), unity = OSCArgument.float(0.75), empty = OSCArgument.string("")

    /// A strip's mix section (channels, aux ins, FX returns): on, fader, stereo, pan, mono, mono level.
    private static func mix(_ prefix: String) -> [Leaf] {
        [("\(prefix)/mix/on", i1), ("\(prefix)/mix/fader", unity), ("\(prefix)/mix/st", i1), ("\(prefix)/mix/pan", half),
         ("\(prefix)/mix/mono", i0), ("\(prefix)/mix/mlevel", zero)]
    }

    /// Sends of `prefix` to `sends` (a `{…}` range): on, level, pan, type, pan follow.
    private static func sends(_ prefix: String, _ sends: String) -> [Leaf] {
        [("\(prefix)/mix/\(sends)/on", i1), ("\(prefix)/mix/\(sends)/level", zero), ("\(prefix)/mix/\(sends)/pan", half),
         ("\(prefix)/mix/\(sends)/type", .int(3)), ("\(prefix)/mix/\(sends)/panFollow", i0)]
    }

    private static func config(_ prefix: String, source: Bool = false) -> [Leaf] {
        [("\(prefix)/config/name", empty), ("\(prefix)/config/icon", i1), ("\(prefix)/config/color", i1)]
            + (source ? [("\(prefix)/config/source", i1)] : [])
    }

    private static func eq(_ prefix: String, bands: Int) -> [Leaf] {
        [("\(prefix)/eq/on", i0), ("\(prefix)/eq/{1-\(bands):1}/type", .int(2)), ("\(prefix)/eq/{1-\(bands):1}/f", half),
         ("\(prefix)/eq/{1-\(bands):1}/g", half), ("\(prefix)/eq/{1-\(bands):1}/q", half)]
    }

    private static func dynamics(_ prefix: String) -> [Leaf] {
        ["on", "mode", "det", "env", "ratio", "pos", "keysrc", "auto", "filter/on", "filter/type"].map { ("\(prefix)/dyn/\($0)", i0) }
            + ["thr", "knee", "mgain", "attack", "hold", "release", "mix", "filter/f"].map { ("\(prefix)/dyn/\($0)", half) }
    }

    private static func gate(_ prefix: String) -> [Leaf] {
        ["on", "mode", "keysrc", "filter/on", "filter/type"].map { ("\(prefix)/gate/\($0)", i0) }
            + ["thr", "range", "attack", "hold", "release", "filter/f"].map { ("\(prefix)/gate/\($0)", half) }
    }

    private static func insert(_ prefix: String) -> [Leaf] {
        [("\(prefix)/insert/on", i0), ("\(prefix)/insert/pos", i0), ("\(prefix)/insert/sel", i0)]
    }

    private static func groups(_ prefix: String) -> [Leaf] { [("\(prefix)/grp/dca", i0), ("\(prefix)/grp/mute", i0)] }

    /// Every leaf pattern of `dialect`'s tree.
    static func leaves(_ dialect: X32Dialect) -> [Leaf] {
        let ch = "/ch/{ch}", bus = "/bus/{bus}", main = "/{main}"
        var leaves: [Leaf] = config(ch, source: true) + mix(ch) + sends(ch, "{mix}") + eq(ch, bands: 4) + dynamics(ch) + gate(ch)
            + insert(ch) + groups(ch)
            + [("\(ch)/preamp/trim", half), ("\(ch)/preamp/invert", i0), ("\(ch)/preamp/hpon", i0), ("\(ch)/preamp/hpslope", i0),
               ("\(ch)/preamp/hpf", zero), ("\(ch)/delay/on", i0), ("\(ch)/delay/time", zero), ("\(ch)/automix/group", i0),
               ("\(ch)/automix/weight", half), ("\(ch)/mix/{mix}/grpon", i1)]
        leaves += config(bus) + mix(bus) + eq(bus, bands: 6) + dynamics(bus) + insert(bus) + groups(bus)
        leaves += config(main) + mix(main) + eq(main, bands: 6) + dynamics(main) + insert(main)
        leaves += [("/dca/{dca}/on", i1), ("/dca/{dca}/fader", unity)] + config("/dca/{dca}")
        leaves += [("/config/mute/{mg}", i0)]
        leaves += [("/fx/{fx}/type", i0), ("/fx/{fx}/par/{1-64:2}", half)]
        leaves += [("/-stat/solo", i0), ("/-stat/selidx", i0), ("/-stat/autosave", i0), ("/-stat/lock", i0),
                   ("/-stat/screen/screen", i0), ("/-stat/rtasource", i0)]
        leaves += [("/-prefs/name", empty), ("/-prefs/bright", half), ("/-prefs/clockrate", i0), ("/-prefs/remote/enable", i1),
                   ("/-prefs/remote/protocol", i0), ("/-prefs/remote/port", i0), ("/-prefs/hardmute", i0), ("/-prefs/dcamute", i0)]
        switch dialect {
        case .x32:
            leaves += sends(bus, "{1-6:2}") + sends(main, "{1-6:2}")
            leaves += config("/auxin/{1-8:2}", source: true) + mix("/auxin/{1-8:2}") + sends("/auxin/{1-8:2}", "{mix}")
                + eq("/auxin/{1-8:2}", bands: 4) + groups("/auxin/{1-8:2}") + [("/auxin/{1-8:2}/preamp/trim", half), ("/auxin/{1-8:2}/preamp/invert", i0)]
            leaves += config("/fxrtn/{1-8:2}") + mix("/fxrtn/{1-8:2}") + sends("/fxrtn/{1-8:2}", "{mix}") + eq("/fxrtn/{1-8:2}", bands: 4)
                + groups("/fxrtn/{1-8:2}")
            leaves += config("/mtx/{1-6:2}") + [("/mtx/{1-6:2}/mix/on", i1), ("/mtx/{1-6:2}/mix/fader", unity), ("/mtx/{1-6:2}/preamp/invert", i0)]
                + eq("/mtx/{1-6:2}", bands: 6) + dynamics("/mtx/{1-6:2}") + insert("/mtx/{1-6:2}")
            leaves += config("/main/m") + [("/main/m/mix/on", i1), ("/main/m/mix/fader", unity)] + sends("/main/m", "{1-6:2}")
                + eq("/main/m", bands: 6) + dynamics("/main/m") + insert("/main/m")
            leaves += [("/fx/{fx}/source/l", i0), ("/fx/{fx}/source/r", i0)]
            leaves += [("/headamp/{0-127:3}/gain", .float(0.1667)), ("/headamp/{0-127:3}/phantom", i0)]
            leaves += [("/outputs/main/{1-16:2}/src", i0), ("/outputs/main/{1-16:2}/pos", i0), ("/outputs/main/{1-16:2}/invert", i0),
                       ("/outputs/main/{1-16:2}/delay/on", i0), ("/outputs/main/{1-16:2}/delay/time", zero),
                       ("/outputs/aux/{1-6:2}/src", i0), ("/outputs/aux/{1-6:2}/pos", i0), ("/outputs/p16/{1-16:2}/src", i0),
                       ("/outputs/p16/{1-16:2}/pos", i0), ("/outputs/aes/{1-2:2}/src", i0), ("/outputs/rec/{1-2:2}/src", i0)]
            leaves += [("/config/chlink/{link32}", i0), ("/config/buslink/{link16}", i0), ("/config/mono/mode", i0),
                       ("/config/mono/link", i0), ("/config/solo/level", zero), ("/config/solo/source", i0), ("/config/talk/enable", i0),
                       ("/config/talk/source", i0), ("/config/osc/level", zero), ("/config/userrout/in/{1-32:2}", i0),
                       ("/config/userrout/out/{1-48:2}", i0), ("/config/routing/routswitch", i0)]
            leaves += [("/-stat/tape/state", i0), ("/-stat/tape/file", empty), ("/-stat/tape/etime", i0), ("/-stat/tape/rtime", i0),
                       ("/-stat/usbmounted", i0), ("/-stat/chfaderbank", i0), ("/-stat/grpfaderbank", i0), ("/-stat/sendsonfader", i0),
                       ("/-stat/bussendbank", i0), ("/-stat/eqband", i0), ("/-stat/keysolo", i0), ("/-stat/userbank", i0),
                       ("/-stat/remote", i0), ("/-stat/xcardtype", i0), ("/-stat/xcardsync", i0), ("/-stat/aes50/state", i0),
                       ("/-stat/solosw/{1-80:2}", i0), ("/-stat/talk/A", i0), ("/-stat/talk/B", i0), ("/-stat/osc/on", i0)]
            leaves += [("/-prefs/style", empty), ("/-prefs/lcdcont", half), ("/-prefs/ledbright", half), ("/-prefs/lamp", half),
                       ("/-prefs/lampon", i0), ("/-prefs/clocksource", i0), ("/-prefs/confirm_general", i1),
                       ("/-prefs/confirm_overwrite", i1), ("/-prefs/confirm_sceneload", i1), ("/-prefs/viewrtn", i0),
                       ("/-prefs/selfollowsbank", i0), ("/-prefs/scene_advance", i0), ("/-prefs/safe_masterlevels", i0),
                       ("/-prefs/haflags", i0), ("/-prefs/autosel", i1), ("/-prefs/show_control", i0), ("/-prefs/clockmode", i0),
                       ("/-prefs/invertmutes", i0), ("/-prefs/rec_control", i0), ("/-prefs/fastFaders", i0),
                       ("/-prefs/ip/dhcp", i0), ("/-prefs/ip/addr/{0-3:1}", i0), ("/-prefs/ip/mask/{0-3:1}", i0),
                       ("/-prefs/ip/gateway/{0-3:1}", i0), ("/-prefs/remote/ioenable", i0), ("/-prefs/card/UFifc", i0),
                       ("/-prefs/card/UFmode", i0), ("/-prefs/card/USBmode", i0), ("/-prefs/rta/visibility", empty),
                       ("/-prefs/rta/gain", zero), ("/-prefs/rta/autogain", i0), ("/-prefs/rta/source", i0),
                       ("/-prefs/rta/decay", i0), ("/-prefs/rta/peakhold", i0)]
            leaves += [("/-show/prepos/current", .int(-1)), ("/-show/showfile/show/name", empty),
                       ("/-show/showfile/scene/{0-99:3}/name", empty), ("/-show/showfile/scene/{0-99:3}/notes", empty),
                       ("/-show/showfile/snippet/{0-99:3}/name", empty), ("/-show/showfile/cue/{0-99:3}/name", empty),
                       ("/-action/goscene", i0), ("/-action/gosnippet", i0), ("/-action/gocue", i0), ("/-action/clearsolo", i0),
                       ("/-action/setrtasrc", i0), ("/-action/playtrack", i0), ("/-undo/time", empty), ("/-usb/path", empty),
                       ("/-usb/title", empty)]
        case .xair:
            leaves += sends(bus, "{1-6:2}")
            leaves += [("/headamp/{1-24:2}/gain", .float(0.1667)), ("/headamp/{1-24:2}/phantom", i0)]
            leaves += config("/rtn/aux") + mix("/rtn/aux") + sends("/rtn/aux", "{mix}") + groups("/rtn/aux")
            leaves += config("/rtn/{1-4:1}") + mix("/rtn/{1-4:1}") + sends("/rtn/{1-4:1}", "{mix}") + groups("/rtn/{1-4:1}")
            leaves += config("/fxsend/{1-4:1}") + [("/fxsend/{1-4:1}/mix/on", i1), ("/fxsend/{1-4:1}/mix/fader", unity)]
                + groups("/fxsend/{1-4:1}")
            leaves += [("/-show/prepos/current", .int(-1)), ("/-show/showfile/show/name", empty)]
            leaves += [("/-snap/index", i0), ("/-snap/name", empty), ("/-snap/load", i0), ("/-snap/save", i0),
                       ("/-stat/tape/state", i0), ("/-stat/tape/file", empty), ("/-stat/usbmounted", i0),
                       ("/config/chlink/{link16}", i0), ("/config/buslink/{link6}", i0),
                       ("/config/solo/level", zero), ("/config/solo/source", i0), ("/-prefs/ap/ssid", empty), ("/-prefs/lan/mode", i0)]
        }
        return leaves
    }

    /// Every concrete address of `dialect`'s tree with its default, in document order.
    static func addresses(_ dialect: X32Dialect) -> [(address: String, value: OSCArgument)] {
        leaves(dialect).flatMap { leaf in expand(leaf.pattern, dialect).map { ($0, leaf.value) } }
    }

    /// The concrete addresses of `pattern`.
    static func expand(_ pattern: String, _ dialect: X32Dialect) -> [String] {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern[open...].firstIndex(of: "}") else { return [pattern] }
        let token = pattern[pattern.index(after: open)..<close]
        let head = String(pattern[..<open]), tail = String(pattern[pattern.index(after: close)...])
        let numbers: [String]
        switch token {
        case "ch": numbers = (1...dialect.channelCount).map { X32Dialect.padded($0, 2) }
        case "bus": numbers = (1...dialect.busCount).map { X32Dialect.padded($0, dialect == .x32 ? 2 : 1) }
        case "mix": numbers = (1...dialect.busCount).map { X32Dialect.padded($0, 2) }
        case "dca": numbers = (1...dialect.dcaCount).map(String.init)
        case "mg": numbers = (1...dialect.muteGroupCount).map(String.init)
        case "fx": numbers = (1...(dialect == .x32 ? 8 : 4)).map(String.init)
        case "main": numbers = [String(dialect.main.dropFirst())]
        case "link16", "link32", "link6":   // stereo link pairs: `1-2`, `3-4`, …
            numbers = stride(from: 1, to: Int(token.dropFirst(4)) ?? 0, by: 2).map { "\($0)-\($0 + 1)" }
        default:
            let parts = token.split(whereSeparator: { $0 == "-" || $0 == ":" }).compactMap { Int($0) }
            guard parts.count == 3 else { return [] }
            numbers = (parts[0]...parts[1]).map { X32Dialect.padded($0, parts[2]) }
        }
        return numbers.flatMap { number in expand(head + number + tail, dialect) }
    }
}
