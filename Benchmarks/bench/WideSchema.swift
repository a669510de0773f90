import Fanout
import FanoutScrollViewKit

// A delegate protocol of 64 messages, for showing that finding a message named
// at run time costs the same whatever the number of messages: its selectors
// have the length of `scrollViewDidScroll:` (20 characters), and the
// `forwardLookup` cases forward one of them as they forward `didScroll`
// through the 4-message `ScrollViewSchema`. Written out by hand, as a real
// protocol's glue would be: one key and one descriptor line per message.

protocol WideDelegate: AnyObject {
    func receive(_ message: Int, from scrollView: ScrollView)
}

/// The 64 messages, `wideSchemaMessage00:` … `wideSchemaMessage63:`.
enum WideMessage: String, MessageKey {
    case m00 = "wideSchemaMessage00:", m01 = "wideSchemaMessage01:", m02 = "wideSchemaMessage02:", m03 = "wideSchemaMessage03:"
    case m04 = "wideSchemaMessage04:", m05 = "wideSchemaMessage05:", m06 = "wideSchemaMessage06:", m07 = "wideSchemaMessage07:"
    case m08 = "wideSchemaMessage08:", m09 = "wideSchemaMessage09:", m10 = "wideSchemaMessage10:", m11 = "wideSchemaMessage11:"
    case m12 = "wideSchemaMessage12:", m13 = "wideSchemaMessage13:", m14 = "wideSchemaMessage14:", m15 = "wideSchemaMessage15:"
    case m16 = "wideSchemaMessage16:", m17 = "wideSchemaMessage17:", m18 = "wideSchemaMessage18:", m19 = "wideSchemaMessage19:"
    case m20 = "wideSchemaMessage20:", m21 = "wideSchemaMessage21:", m22 = "wideSchemaMessage22:", m23 = "wideSchemaMessage23:"
    case m24 = "wideSchemaMessage24:", m25 = "wideSchemaMessage25:", m26 = "wideSchemaMessage26:", m27 = "wideSchemaMessage27:"
    case m28 = "wideSchemaMessage28:", m29 = "wideSchemaMessage29:", m30 = "wideSchemaMessage30:", m31 = "wideSchemaMessage31:"
    case m32 = "wideSchemaMessage32:", m33 = "wideSchemaMessage33:", m34 = "wideSchemaMessage34:", m35 = "wideSchemaMessage35:"
    case m36 = "wideSchemaMessage36:", m37 = "wideSchemaMessage37:", m38 = "wideSchemaMessage38:", m39 = "wideSchemaMessage39:"
    case m40 = "wideSchemaMessage40:", m41 = "wideSchemaMessage41:", m42 = "wideSchemaMessage42:", m43 = "wideSchemaMessage43:"
    case m44 = "wideSchemaMessage44:", m45 = "wideSchemaMessage45:", m46 = "wideSchemaMessage46:", m47 = "wideSchemaMessage47:"
    case m48 = "wideSchemaMessage48:", m49 = "wideSchemaMessage49:", m50 = "wideSchemaMessage50:", m51 = "wideSchemaMessage51:"
    case m52 = "wideSchemaMessage52:", m53 = "wideSchemaMessage53:", m54 = "wideSchemaMessage54:", m55 = "wideSchemaMessage55:"
    case m56 = "wideSchemaMessage56:", m57 = "wideSchemaMessage57:", m58 = "wideSchemaMessage58:", m59 = "wideSchemaMessage59:"
    case m60 = "wideSchemaMessage60:", m61 = "wideSchemaMessage61:", m62 = "wideSchemaMessage62:", m63 = "wideSchemaMessage63:"
}

/// One descriptor per message, each calling `receive` with its number.
enum WideSchema: DelegateSchema {
    typealias Target = any WideDelegate
    typealias Key = WideMessage

    static var messages: [any MessageProtocol<Self>] {
        [
            m00, m01, m02, m03, m04, m05, m06, m07,
            m08, m09, m10, m11, m12, m13, m14, m15,
            m16, m17, m18, m19, m20, m21, m22, m23,
            m24, m25, m26, m27, m28, m29, m30, m31,
            m32, m33, m34, m35, m36, m37, m38, m39,
            m40, m41, m42, m43, m44, m45, m46, m47,
            m48, m49, m50, m51, m52, m53, m54, m55,
            m56, m57, m58, m59, m60, m61, m62, m63,
        ]
    }

    static var m00: Message<Self, ScrollView, Void> { .init(.m00) { $0.receive(0, from: $1) } }
    static var m01: Message<Self, ScrollView, Void> { .init(.m01) { $0.receive(1, from: $1) } }
    static var m02: Message<Self, ScrollView, Void> { .init(.m02) { $0.receive(2, from: $1) } }
    static var m03: Message<Self, ScrollView, Void> { .init(.m03) { $0.receive(3, from: $1) } }
    static var m04: Message<Self, ScrollView, Void> { .init(.m04) { $0.receive(4, from: $1) } }
    static var m05: Message<Self, ScrollView, Void> { .init(.m05) { $0.receive(5, from: $1) } }
    static var m06: Message<Self, ScrollView, Void> { .init(.m06) { $0.receive(6, from: $1) } }
    static var m07: Message<Self, ScrollView, Void> { .init(.m07) { $0.receive(7, from: $1) } }
    static var m08: Message<Self, ScrollView, Void> { .init(.m08) { $0.receive(8, from: $1) } }
    static var m09: Message<Self, ScrollView, Void> { .init(.m09) { $0.receive(9, from: $1) } }
    static var m10: Message<Self, ScrollView, Void> { .init(.m10) { $0.receive(10, from: $1) } }
    static var m11: Message<Self, ScrollView, Void> { .init(.m11) { $0.receive(11, from: $1) } }
    static var m12: Message<Self, ScrollView, Void> { .init(.m12) { $0.receive(12, from: $1) } }
    static var m13: Message<Self, ScrollView, Void> { .init(.m13) { $0.receive(13, from: $1) } }
    static var m14: Message<Self, ScrollView, Void> { .init(.m14) { $0.receive(14, from: $1) } }
    static var m15: Message<Self, ScrollView, Void> { .init(.m15) { $0.receive(15, from: $1) } }
    static var m16: Message<Self, ScrollView, Void> { .init(.m16) { $0.receive(16, from: $1) } }
    static var m17: Message<Self, ScrollView, Void> { .init(.m17) { $0.receive(17, from: $1) } }
    static var m18: Message<Self, ScrollView, Void> { .init(.m18) { $0.receive(18, from: $1) } }
    static var m19: Message<Self, ScrollView, Void> { .init(.m19) { $0.receive(19, from: $1) } }
    static var m20: Message<Self, ScrollView, Void> { .init(.m20) { $0.receive(20, from: $1) } }
    static var m21: Message<Self, ScrollView, Void> { .init(.m21) { $0.receive(21, from: $1) } }
    static var m22: Message<Self, ScrollView, Void> { .init(.m22) { $0.receive(22, from: $1) } }
    static var m23: Message<Self, ScrollView, Void> { .init(.m23) { $0.receive(23, from: $1) } }
    static var m24: Message<Self, ScrollView, Void> { .init(.m24) { $0.receive(24, from: $1) } }
    static var m25: Message<Self, ScrollView, Void> { .init(.m25) { $0.receive(25, from: $1) } }
    static var m26: Message<Self, ScrollView, Void> { .init(.m26) { $0.receive(26, from: $1) } }
    static var m27: Message<Self, ScrollView, Void> { .init(.m27) { $0.receive(27, from: $1) } }
    static var m28: Message<Self, ScrollView, Void> { .init(.m28) { $0.receive(28, from: $1) } }
    static var m29: Message<Self, ScrollView, Void> { .init(.m29) { $0.receive(29, from: $1) } }
    static var m30: Message<Self, ScrollView, Void> { .init(.m30) { $0.receive(30, from: $1) } }
    static var m31: Message<Self, ScrollView, Void> { .init(.m31) { $0.receive(31, from: $1) } }
    static var m32: Message<Self, ScrollView, Void> { .init(.m32) { $0.receive(32, from: $1) } }
    static var m33: Message<Self, ScrollView, Void> { .init(.m33) { $0.receive(33, from: $1) } }
    static var m34: Message<Self, ScrollView, Void> { .init(.m34) { $0.receive(34, from: $1) } }
    static var m35: Message<Self, ScrollView, Void> { .init(.m35) { $0.receive(35, from: $1) } }
    static var m36: Message<Self, ScrollView, Void> { .init(.m36) { $0.receive(36, from: $1) } }
    static var m37: Message<Self, ScrollView, Void> { .init(.m37) { $0.receive(37, from: $1) } }
    static var m38: Message<Self, ScrollView, Void> { .init(.m38) { $0.receive(38, from: $1) } }
    static var m39: Message<Self, ScrollView, Void> { .init(.m39) { $0.receive(39, from: $1) } }
    static var m40: Message<Self, ScrollView, Void> { .init(.m40) { $0.receive(40, from: $1) } }
    static var m41: Message<Self, ScrollView, Void> { .init(.m41) { $0.receive(41, from: $1) } }
    static var m42: Message<Self, ScrollView, Void> { .init(.m42) { $0.receive(42, from: $1) } }
    static var m43: Message<Self, ScrollView, Void> { .init(.m43) { $0.receive(43, from: $1) } }
    static var m44: Message<Self, ScrollView, Void> { .init(.m44) { $0.receive(44, from: $1) } }
    static var m45: Message<Self, ScrollView, Void> { .init(.m45) { $0.receive(45, from: $1) } }
    static var m46: Message<Self, ScrollView, Void> { .init(.m46) { $0.receive(46, from: $1) } }
    static var m47: Message<Self, ScrollView, Void> { .init(.m47) { $0.receive(47, from: $1) } }
    static var m48: Message<Self, ScrollView, Void> { .init(.m48) { $0.receive(48, from: $1) } }
    static var m49: Message<Self, ScrollView, Void> { .init(.m49) { $0.receive(49, from: $1) } }
    static var m50: Message<Self, ScrollView, Void> { .init(.m50) { $0.receive(50, from: $1) } }
    static var m51: Message<Self, ScrollView, Void> { .init(.m51) { $0.receive(51, from: $1) } }
    static var m52: Message<Self, ScrollView, Void> { .init(.m52) { $0.receive(52, from: $1) } }
    static var m53: Message<Self, ScrollView, Void> { .init(.m53) { $0.receive(53, from: $1) } }
    static var m54: Message<Self, ScrollView, Void> { .init(.m54) { $0.receive(54, from: $1) } }
    static var m55: Message<Self, ScrollView, Void> { .init(.m55) { $0.receive(55, from: $1) } }
    static var m56: Message<Self, ScrollView, Void> { .init(.m56) { $0.receive(56, from: $1) } }
    static var m57: Message<Self, ScrollView, Void> { .init(.m57) { $0.receive(57, from: $1) } }
    static var m58: Message<Self, ScrollView, Void> { .init(.m58) { $0.receive(58, from: $1) } }
    static var m59: Message<Self, ScrollView, Void> { .init(.m59) { $0.receive(59, from: $1) } }
    static var m60: Message<Self, ScrollView, Void> { .init(.m60) { $0.receive(60, from: $1) } }
    static var m61: Message<Self, ScrollView, Void> { .init(.m61) { $0.receive(61, from: $1) } }
    static var m62: Message<Self, ScrollView, Void> { .init(.m62) { $0.receive(62, from: $1) } }
    static var m63: Message<Self, ScrollView, Void> { .init(.m63) { $0.receive(63, from: $1) } }
}

/// A target that responds to every wide message and counts them.
final class WideTarget: WideDelegate {
    var tally = 0
    func receive(_ message: Int, from scrollView: ScrollView) { tally &+= message }
}
