/// Whether this build takes its layout-dependent fast paths, which read or write a value's bytes where one
/// platform's Swift ABI puts them (`Documentation/Portability.md` lists each, with its portable path).
///
/// Taken only where they are built and tested: Linux on x86-64. Elsewhere, and with `FANOUT_PORTABLE`
/// (`swift build -Xswiftc -DFANOUT_PORTABLE`), each takes its portable path, which uses only what the language
/// guarantees. A constant when Fanout is compiled, so that an `@inlinable` use costs nothing.
@usableFromInline
internal enum Portability {
    #if FANOUT_PORTABLE || !(os(Linux) && arch(x86_64))
        /// The portable paths are taken.
        @inlinable
        internal static var usesLayoutFastPaths: Bool { false }
    #else
        /// The fast paths are taken (Linux x86-64, where they are tested).
        @inlinable
        internal static var usesLayoutFastPaths: Bool { true }
    #endif
}
