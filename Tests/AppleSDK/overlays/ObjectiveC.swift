// The Swift overlay of the mock `ObjectiveC` module: the types the importer maps `BOOL` and `SEL` to, which a
// real SDK's overlay provides. Written for Fanout's Apple type check (scripts/typecheck-apple).
@_exported import ObjectiveC

/// Objective-C's `BOOL`, as imported.
@frozen
public struct ObjCBool: ExpressibleByBooleanLiteral {
    private var value: Int8

    public init(_ value: Bool) { self.value = value ? 1 : 0 }

    public init(booleanLiteral value: Bool) { self.init(value) }

    /// The value as a Swift `Bool`.
    public var boolValue: Bool { value != 0 }
}

/// An Objective-C selector, registered by name.
@frozen
public struct Selector: ExpressibleByStringLiteral, Equatable, Hashable {
    private var pointer: OpaquePointer

    /// The selector named `name` (SEL imports as this type, so the runtime's
    /// function returns one).
    public init(_ name: String) { self = name.withCString { sel_registerName($0) } }

    public init(stringLiteral name: String) { self.init(name) }
}

// The importer's conversions between `BOOL` and `Bool`, looked up by name.
public func _convertBoolToObjCBool(_ value: Bool) -> ObjCBool { ObjCBool(value) }

public func _convertObjCBoolToBool(_ value: ObjCBool) -> Bool { value.boolValue }
